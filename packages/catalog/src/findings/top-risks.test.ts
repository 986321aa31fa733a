import { describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { sampleWorkspace } from '../../test/support/estate.js';
import { Dataset } from '../dataset/dataset.js';
import { topRisks } from './top-risks.js';

describe('topRisks', () => {
  it('stops when its signal has fired', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(() => topRisks(dataset, { top: 10, minSeverity: null, signal: controller.signal })).toThrow(
      'cancelled',
    );
  });

  it('ignores findings on no known asset', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const { items } = topRisks(dataset, { top: 100, minSeverity: 'MEDIUM' });
    const findings = items.flatMap((i) => i.top_findings.map((f) => f.id));
    expect(findings).not.toContain('f-ghost');
    expect(findings).toContain('f-db-backup');
  });

  it('shows the first `top` of all candidates by score, then name, however many tie', () => {
    const { assets, edges, findings } = generateEstate({ seed: 2, assets: 2000, scans: false });
    const dataset = new Dataset({
      name: 'estate',
      kind: 'inventory',
      source: 'inline',
      assets,
      edges,
      findings,
    });
    const all = topRisks(dataset, { top: 1_000_000, minSeverity: null }).items;
    expect(all.length).toBeGreaterThan(500);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a && b && (a.score > b.score || (a.score === b.score && a.asset.name <= b.asset.name))).toBe(
        true,
      );
    }
    for (const top of [1, 10, 37, 100]) {
      const items = topRisks(dataset, { top, minSeverity: 'LOW' }).items;
      const expected = topRisks(dataset, { top: 1_000_000, minSeverity: 'LOW' }).items.slice(0, top);
      expect(items.map((i) => [i.asset.id, i.score])).toEqual(expected.map((i) => [i.asset.id, i.score]));
    }
  });
});
