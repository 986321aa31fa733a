/** `load_dataset` on scanner output: what it skipped and what it merged are in the result. */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCatalogLayer, type Workspace } from '../../src/index.js';
import { copyEstate, workspaceAt } from '../support/estate.js';
import { call } from './support.js';

const corpus = join(import.meta.dirname, '../fixtures/scanners');

let estate: { dir: string; cleanup: () => Promise<void> };
let layer: Layer<Workspace>;
beforeEach(async () => {
  estate = await copyEstate();
  layer = createCatalogLayer({ workspace: workspaceAt(estate.dir) });
});
afterEach(async () => {
  await estate.cleanup();
});

it('lists a directory file it could not read and keeps the others', async () => {
  const dir = join(estate.dir, 'trivy-out');
  await mkdir(dir);
  await copyFile(join(corpus, 'trivy/schema2-image.json'), join(dir, 'image.json'));
  await writeFile(join(dir, 'cut.json'), '{"SchemaVersion": 2, "Results": [');
  const result = await call(layer, 'load_dataset', { path: 'trivy-out', kind: 'trivy' });
  expect(result).toMatchObject({
    loaded: 'trivy-out',
    kind: 'trivy',
    total_findings: 5,
    // Under the resolved path, as `source` is.
    errors: [
      {
        path: expect.stringMatching(/trivy-out\/cut\.json$/),
        error: expect.stringContaining('not valid JSON'),
      },
    ],
  });
  expect(result).not.toHaveProperty('deduplication');
});

it('says how many findings deduplication merged and why', async () => {
  const result = await call(layer, 'load_dataset', {
    path: join(corpus, 'scoutsuite/gcp-two-findings.js'),
  }).catch(() => null);
  // The corpus is outside the allowed roots: copy it in first.
  expect(result).toBeNull();
  await copyFile(join(corpus, 'prowler/v5-ocsf-kubernetes.ocsf.json'), join(estate.dir, 'k8s.ocsf.json'));
  const loaded = await call(layer, 'load_dataset', { path: 'k8s.ocsf.json' });
  expect(loaded).toMatchObject({
    kind: 'prowler',
    total_findings: 3,
    deduplication: { merged: 1, reasons: [{ reason: 'same_check', merged: 1 }] },
  });
  expect(loaded).not.toHaveProperty('errors');
});

it('loads an empty report as an empty dataset', async () => {
  await writeFile(join(estate.dir, 'prowler-output.ocsf.json'), '[]');
  const result = await call(layer, 'load_dataset', { path: 'prowler-output.ocsf.json' });
  expect(result).toMatchObject({ loaded: 'prowler-output.ocsf', kind: 'prowler', total_findings: 0 });
});
