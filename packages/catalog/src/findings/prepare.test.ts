import { join } from 'node:path';
import { createLogger } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { sampleWorkspace, workspaceAt } from '../../test/support/estate.js';
import { FINDING_SORTS, sortFindings } from '../conventions/sorting.js';
import { DatasetIndexes } from '../dataset/indexes.js';
import { createCatalogLayer, sampleEstateDir } from '../index.js';
import { prepareFindings } from './prepare.js';
import { findingsSortedBy } from './sorted.js';
import { FINDING_GROUPS } from './summary.js';

const PREPARED = [
  'findings:facts',
  'findings:suppressed-flags',
  'findings:search-text',
  ...FINDING_SORTS.map((sort) => `findings:columns:${sort}`),
  ...FINDING_GROUPS.map((group) => `findings:group-keys:${group}`),
];

describe('prepareFindings', () => {
  it('builds what the findings tools read, the same as they would build it', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    await prepareFindings(dataset);
    for (const key of PREPARED) expect(dataset.isCached(key), key).toBe(true);
    for (const sort of FINDING_SORTS)
      expect(findingsSortedBy(dataset, sort)).toEqual(sortFindings(dataset.findings, sort));
    const fresh = new DatasetIndexes(dataset);
    expect(dataset.indexes.assetsOfFindings()).toEqual(fresh.assetsOfFindings());
  });

  it('stops when the dataset changes under it', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const preparing = prepareFindings(dataset);
    dataset.touch();
    await preparing;
    expect(dataset.isCached('findings:columns:risk')).toBe(false);
  });

  it('runs in load_dataset, so the first list_findings reads built columns', async () => {
    const ws = workspaceAt(sampleEstateDir());
    const layer = createCatalogLayer({ workspace: ws, logger: createLogger({ level: 'silent' }) });
    const loaded = await layer.callTool('load_dataset', { path: join(sampleEstateDir(), 'inventory') });
    expect(loaded.isError).toBe(false);
    const dataset = ws.get(ws.activeName ?? '');
    for (const key of PREPARED) expect(dataset.isCached(key), key).toBe(true);
  });

  it("runs for the operator's preload too (server start-up --dataset, a replica replaying a load)", async () => {
    const ws = workspaceAt(sampleEstateDir());
    const dataset = await ws.preload(join(sampleEstateDir(), 'inventory'), { name: 'prod' });
    for (const key of PREPARED) expect(dataset.isCached(key), key).toBe(true);
  });
});

describe('DatasetIndexes.findingMapSteps', () => {
  it('gives the map a single pass gives, whoever finishes it', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const expected = new DatasetIndexes(dataset).assetsOfFindings();
    const stepped = new DatasetIndexes(dataset);
    for (const _ of stepped.findingMapSteps(2));
    expect(stepped.assetsOfFindings()).toEqual(expected);
    // Left half-way, a reader finishes the map where the steps stopped.
    const halfway = new DatasetIndexes(dataset);
    const steps = halfway.findingMapSteps(3);
    steps.next();
    steps.next();
    expect(halfway.assetsOfFindings()).toEqual(expected);
    expect(halfway.findingsOf('web-1')).toEqual(new DatasetIndexes(dataset).findingsOf('web-1'));
  });

  it('builds the matcher in steps, the same as at once', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const refs = dataset.assets.flatMap((a) => [a.id, a.name, a.arn ?? '', a.name.toUpperCase()]);
    const once = new DatasetIndexes(dataset).matcher;
    const stepped = new DatasetIndexes(dataset);
    const steps = stepped.matcherSteps(4);
    steps.next();
    for (const ref of refs) expect(stepped.matcher.match(ref), ref).toEqual(once.match(ref));
  });
});
