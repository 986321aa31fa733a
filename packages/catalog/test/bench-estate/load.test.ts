/**
 * What a written estate gives the real loaders: the inventory directory is one dataset with
 * every asset, edge, finding and the organization; each scanner's reports load as findings,
 * every one of them, and each names an asset of the inventory.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedEstate, WrittenEstate } from '../../bench/estate/index.js';
import type { Dataset, Workspace } from '../../src/index.js';
import { writtenEstate } from './support.js';

let estate: GeneratedEstate;
let written: WrittenEstate;
let ws: Workspace;
let inventory: Dataset;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ estate, written, ws, cleanup } = await writtenEstate(11, 3000));
  inventory = await ws.load(written.inventoryDir, { name: 'estate' });
});
afterAll(() => cleanup());

describe('a written estate through Workspace.load', () => {
  it('loads the inventory directory as one dataset with the expected counts', () => {
    expect(inventory.kind).toBe('inventory');
    expect(inventory.assets).toHaveLength(3000);
    expect(inventory.edges).toHaveLength(estate.summary.edges);
    expect(inventory.findings).toHaveLength(6000);
    expect(inventory.organization?.organization_id).toBe(estate.organization.organization_id);
    expect(Object.keys(inventory.organization?.accounts ?? {}).length).toBe(
      estate.summary.clouds.AWS.accounts,
    );
    expect(inventory.compliance.length).toBeGreaterThan(0);
    expect(new Set(inventory.findings.map((f) => f.source_tool))).toEqual(
      new Set(['prowler', 'scoutsuite', 'checkov', 'trivy']),
    );
  });

  it('ties every finding of the inventory to an asset', () => {
    const unmatched = inventory.findings.filter((f) => inventory.indexes.assetOfFinding(f) === null);
    expect(unmatched).toEqual([]);
  });

  it.each(['prowler', 'scoutsuite', 'checkov', 'trivy'] as const)(
    'loads every %s finding from its native reports, each naming an inventory asset',
    async (scanner) => {
      const ds = await ws.load(join(written.scansDir, scanner), {
        name: scanner,
        kind: scanner,
        activate: false,
      });
      expect(ds.findings).toHaveLength(estate.summary.findings_by_scanner[scanner]);
      expect(ds.findings.every((f) => f.source_tool === scanner)).toBe(true);
      const matcher = inventory.indexes.matcher;
      const unresolved = ds.findings.filter(
        (f) =>
          !(f.resource_arn && matcher.find(f.resource_arn)) &&
          !(f.resource_id && matcher.find(f.resource_id)),
      );
      expect(unresolved.map((f) => f.resource_id)).toEqual([]);
      // The same findings as the inventory's report holds: one check per resource.
      const key = (f: { resource_id: string | null; title: string }) => `${f.resource_id}\u0000${f.title}`;
      const expected = new Set(inventory.findings.filter((f) => f.source_tool === scanner).map(key));
      expect(new Set(ds.findings.map(key))).toEqual(expected);
    },
  );
});
