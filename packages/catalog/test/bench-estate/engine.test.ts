/**
 * The estate is made for the graph engine: through a real layer, the flow view finds attack
 * paths from the internet to crown jewels and a path to the database behind each probe's entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedEstate } from '../../bench/estate/index.js';
import { CROWN_JEWEL_WEIGHTS } from '../../src/conventions/risk.js';
import { createCatalogLayer } from '../../src/index.js';
import { writtenEstate } from './support.js';

type Layer = ReturnType<typeof createCatalogLayer>;
interface PathResult {
  paths: { length: number; nodes: { type?: string; name: string }[]; summary: string }[];
  total_found: number;
}

let estate: GeneratedEstate;
let layer: Layer;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const w = await writtenEstate(21, 2000);
  estate = w.estate;
  cleanup = w.cleanup;
  layer = createCatalogLayer({ workspace: w.ws });
  const loaded = await layer.callTool('load_dataset', { path: w.written.inventoryDir, name: 'estate' });
  expect(loaded.isError).toBe(false);
});
afterAll(() => cleanup());

describe('the generated estate under the graph tools', () => {
  it('gives attack_paths routes from the internet to crown jewels', async () => {
    const result = await layer.callTool('attack_paths', { max_paths: 10 });
    expect(result.isError).toBe(false);
    const { paths, total_found } = result.structured as unknown as PathResult;
    expect(total_found).toBeGreaterThan(0);
    expect(paths.length).toBeGreaterThan(0);
    const byName = new Map(estate.assets.map((a) => [a.name, a]));
    for (const path of paths) {
      const target = path.summary.split(' -> ').pop() ?? '';
      expect(CROWN_JEWEL_WEIGHTS[byName.get(target)?.asset_type ?? ''] ?? 0, path.summary).toBeGreaterThan(0);
    }
  });

  it('gives find_paths a flow path from the internet to the database behind each probe', async () => {
    const probes = estate.summary.probes.flow.slice(0, 3);
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) {
      const result = await layer.callTool('find_paths', { source: 'internet', target: probe.target });
      expect(result.isError, probe.target).toBe(false);
      expect((result.structured as unknown as PathResult).paths.length, probe.target).toBeGreaterThan(0);
    }
  });
});
