/**
 * The estate is a function of its seed and size: benchmarks run on different days and machines
 * compare like with like only if the bytes are the same.
 */
import { describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';

function filesOf(seed: number, assets: number): Map<string, string> {
  return new Map(generateEstate({ seed, assets }).files());
}

describe('generateEstate determinism', () => {
  it('writes identical bytes for the same seed and size', () => {
    const a = filesOf(7, 1000);
    const b = filesOf(7, 1000);
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [path, text] of a) expect(b.get(path), path).toBe(text);
  });

  it('writes a different estate for another seed', () => {
    const a = filesOf(7, 1000);
    const b = filesOf(8, 1000);
    expect(b.get('inventory/inventory-map.json')).not.toBe(a.get('inventory/inventory-map.json'));
    expect(b.get('inventory/findings.json')).not.toBe(a.get('inventory/findings.json'));
  });

  it('has exactly the requested number of assets and findings per asset', () => {
    for (const assets of [1000, 1777, 2500]) {
      const estate = generateEstate({ seed: 3, assets, scans: false });
      expect(estate.assets).toHaveLength(assets);
      expect(estate.findings).toHaveLength(assets * 2);
      expect(new Set(estate.assets.map((a) => a.id)).size).toBe(assets);
      expect(new Set(estate.assets.map((a) => a.name)).size).toBe(assets);
    }
    expect(generateEstate({ seed: 3, assets: 1000, findingsPerAsset: 0.5 }).findings).toHaveLength(500);
  });

  it('refuses sizes and seeds it cannot honour', () => {
    expect(() => generateEstate({ seed: 1, assets: 999 })).toThrow(RangeError);
    expect(() => generateEstate({ seed: 1, assets: 1000.5 })).toThrow(/at least 1000/);
    expect(() => generateEstate({ seed: 1.5, assets: 1000 })).toThrow(/seed must be an integer/);
    expect(() => generateEstate({ seed: 1, assets: 1000, findingsPerAsset: -1 })).toThrow(RangeError);
  });

  it('leaves the scanner reports out when asked', () => {
    const paths = [...generateEstate({ seed: 1, assets: 1000, scans: false }).files()].map(([p]) => p);
    expect(paths).toEqual([
      'inventory/inventory-map.json',
      'inventory/inventory-organization.json',
      'inventory/findings.json',
      'estate-summary.json',
    ]);
  });
});
