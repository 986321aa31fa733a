import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCatalogLayer, sampleEstateDir, Workspace } from '../../src/index.js';

let out: string | undefined;
afterEach(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

it('runs the README quick start of the Tools section', async () => {
  out = await mkdtemp(join(tmpdir(), 'cloudg-out-'));
  const ws = new Workspace({ allowedRoots: [sampleEstateDir()], outputDir: out });
  const layer = createCatalogLayer({ workspace: ws });
  await layer.callTool('load_dataset', { path: 'inventory', name: 'sample' });
  const page = await layer.callTool('find_assets', { tag: 'owner=web-team', fields: ['name', 'tags'] });
  expect(page.structured).toMatchObject({
    dataset: 'sample',
    total: 3,
    items: [{ id: 'web-1', name: 'web-1', tags: { env: 'prod', owner: 'web-team' } }, {}, {}],
  });
});
