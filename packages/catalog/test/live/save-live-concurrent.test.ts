/**
 * Two saves of one live dataset at once (two `run_scanners` on it, say) leave one whole save:
 * each writes its own temporary file in chunks and renames it over the save (final review of
 * issue 20: both wrote into one temporary file, interleaved, and the save no longer parsed).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Workspace } from '../../src/index.js';
import { type LiveFields, saveLiveDataset } from '../../src/live/store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-save-live-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const collection = (tag: string): LiveFields =>
  ({
    name: 'live-aws',
    providers: ['aws'],
    regions: ['eu-west-1'],
    assets: Array.from({ length: 6000 }, (_, i) => ({ id: `${tag}-${i}`, name: `${tag}-asset-${i}` })),
    edges: [],
    findings: [],
    compliance: [],
    coverage: null,
    organization: null,
    unresolved_references: [],
  }) as unknown as LiveFields;

it('two saves of one name at once leave one of them whole, and no temporary file', async () => {
  const workspace = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  const [a, b] = await Promise.all([
    saveLiveDataset(workspace, collection('a'), 'run_scanners'),
    saveLiveDataset(workspace, collection('b'), 'run_scanners'),
  ]);
  expect(a).toBe(b);
  const saved = JSON.parse(await readFile(a, 'utf8')) as { assets: { id: string }[] };
  expect(saved.assets).toHaveLength(6000);
  const tags = new Set(saved.assets.map((asset) => asset.id.split('-')[0]));
  expect(tags.size).toBe(1);
  expect(await readdir(join(dir, 'out', 'live'))).toEqual(['live-aws.json']);
});
