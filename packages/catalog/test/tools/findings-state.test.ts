import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogLayer, parseCloudgConfig, type Workspace } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, callError, estate } from './support.js';

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'cloudg-state-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

/** A server start: a new workspace and layer over the sample estate, `sample` loaded. */
async function start(options: { stateDir?: string; ws?: Workspace } = {}) {
  const ws = options.ws ?? workspaceAt(estate, options.stateDir ? { stateDir: options.stateDir } : {});
  const layer = createCatalogLayer({ workspace: ws });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { ws, layer };
}

describe('suppressions with a state directory', () => {
  it('survive a restart: reason, who and when come back on the dataset of the same name', async () => {
    const first = await start({ stateDir });
    await call(first.layer, 'suppress_findings', {
      finding_ids: ['f-default-vpc', 'f-nope'],
      reason: 'Accepted risk: sandbox VPC, tracked in RISK-42',
    });
    const before = await call(first.layer, 'get_finding', { finding_id: 'f-default-vpc' });

    const second = await start({ stateDir });
    const after = await call(second.layer, 'get_finding', { finding_id: 'f-default-vpc' });
    expect(after).toMatchObject({
      is_suppressed: true,
      suppression_reason: 'Accepted risk: sandbox VPC, tracked in RISK-42',
      suppressed_by: 'local',
      suppressed_at: before.suppressed_at,
    });
    expect(await call(second.layer, 'findings_summary')).toMatchObject({ total: 10, suppressed: 2 });
    // The reload is served as loaded: version 0, so the first page's cursor is an ordinary one.
    expect(second.ws.get('sample').version).toBe(0);
  });

  it('remember a restore, even of a finding the file itself marks suppressed', async () => {
    const first = await start({ stateDir });
    expect(await call(first.layer, 'unsuppress_findings', { finding_ids: ['f-versioning'] })).toMatchObject({
      unsuppressed: ['f-versioning'],
    });
    const second = await start({ stateDir });
    expect(await call(second.layer, 'findings_summary')).toMatchObject({ total: 12, suppressed: 0 });
  });

  it('apply only to the dataset name they were made on', async () => {
    const first = await start({ stateDir });
    await call(first.layer, 'suppress_findings', {
      finding_ids: ['f-web-cve'],
      reason: 'patched in AMI v42',
    });
    const second = await start({ stateDir });
    await call(second.layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'other' });
    expect(
      await call(second.layer, 'get_finding', { finding_id: 'f-web-cve', dataset: 'other' }),
    ).toMatchObject({
      is_suppressed: false,
    });
    expect(
      await call(second.layer, 'get_finding', { finding_id: 'f-web-cve', dataset: 'sample' }),
    ).toMatchObject({
      is_suppressed: true,
    });
  });

  it('follow reachability findings from run to run (their ids are stable)', async () => {
    const first = await start({ stateDir });
    const added = await call(first.layer, 'reachability_findings', { add_to_dataset: true, limit: 1 });
    const [item] = added.items as { id: string }[];
    await call(first.layer, 'suppress_findings', {
      finding_ids: [item?.id],
      reason: 'the API is meant to be public',
    });
    const second = await start({ stateDir });
    await call(second.layer, 'reachability_findings', { add_to_dataset: true });
    expect(await call(second.layer, 'get_finding', { finding_id: item?.id })).toMatchObject({
      is_suppressed: true,
      suppression_reason: 'the API is meant to be public',
    });
  });

  it('apply to findings ingested again after a restart (scanner findings have stable ids)', async () => {
    const ingest = { reports: { trivy: [join(estate, 'scans', 'trivy.json')] }, normalise: false };
    const first = await start({ stateDir });
    await call(first.layer, 'ingest_reports', ingest);
    const listed = await call(first.layer, 'list_findings', { source_tool: 'trivy', limit: 500 });
    // The ingested ones, not the sample's own f-web-cve.
    const trivy = (listed.items as { id: string }[]).find((f) => /^[0-9a-f]{8}-/.test(f.id));
    expect(trivy).toBeDefined();
    await call(first.layer, 'suppress_findings', { finding_ids: [trivy?.id], reason: 'base image patched' });
    const second = await start({ stateDir });
    await call(second.layer, 'ingest_reports', ingest);
    expect(await call(second.layer, 'get_finding', { finding_id: trivy?.id })).toMatchObject({
      is_suppressed: true,
      suppression_reason: 'base image patched',
    });
  });

  it('are written to suppressions.json, readable by the server user only', async () => {
    const { layer } = await start({ stateDir: join(stateDir, 'nested') });
    await call(layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted' });
    const path = join(stateDir, 'nested', 'suppressions.json');
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved).toEqual({
      format: 'cloudg-suppressions',
      version: 1,
      datasets: {
        sample: {
          'f-ghost': { suppressed: true, reason: 'bucket deleted', by: 'local', at: expect.any(String) },
        },
      },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('come from the config file state.dir, and the explicit option wins', async () => {
    const config = parseCloudgConfig({ state: { dir: 'triage' } }, { baseDir: stateDir });
    const first = await start({ ws: workspaceAt(estate, { config }) });
    expect(first.ws.suppressions.path).toBe(join(stateDir, 'triage', 'suppressions.json'));
    await call(first.layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted' });
    const second = await start({ ws: workspaceAt(estate, { config }) });
    expect(await call(second.layer, 'get_finding', { finding_id: 'f-ghost' })).toMatchObject({
      is_suppressed: true,
    });
    const explicit = workspaceAt(estate, { config, stateDir: join(stateDir, 'elsewhere') });
    expect(explicit.suppressions.path).toBe(join(stateDir, 'elsewhere', 'suppressions.json'));
  });

  it('cannot be loaded as a dataset', async () => {
    const { layer } = await start({ stateDir });
    await call(layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted' });
    const ws = workspaceAt(estate, { stateDir, allowedRoots: [estate, stateDir] });
    const other = createCatalogLayer({ workspace: ws });
    expect((await callError(other, 'load_dataset', { path: join(stateDir, 'suppressions.json') })).code).toBe(
      -31001,
    );
  });

  it('stop start-up on a damaged state file instead of dropping the triage it holds', () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, 'suppressions.json'), '{"datasets": 1}');
    expect(() => workspaceAt(estate, { stateDir })).toThrow(
      expect.objectContaining({
        code: 'state_unreadable',
        data: { path: join(stateDir, 'suppressions.json') },
      }),
    );
  });

  it('leave the dataset unchanged when the decision cannot be saved', async () => {
    const { layer, ws } = await start({ stateDir: join(stateDir, 'blocked') });
    // A file where the directory should be: the first write fails.
    writeFileSync(join(stateDir, 'blocked'), 'not a directory');
    const error = await callError(layer, 'suppress_findings', {
      finding_ids: ['f-ghost'],
      reason: 'bucket deleted',
    });
    expect(error.text).toBe('Could not save the suppression to the state directory; nothing was changed.');
    expect(ws.get('sample').findings.find((f) => f.id === 'f-ghost')?.is_suppressed).toBe(false);
    expect(ws.get('sample').version).toBe(0);
  });
});

describe('suppressions without a state directory (the default)', () => {
  it('live in memory only: a reload or a restart starts from the file again', async () => {
    const first = await start();
    expect(first.ws.suppressions.persistent).toBe(false);
    await call(first.layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted' });
    await call(first.layer, 'load_dataset', {
      path: join(estate, 'inventory'),
      name: 'sample',
      replace: true,
    });
    expect(await call(first.layer, 'get_finding', { finding_id: 'f-ghost' })).toMatchObject({
      is_suppressed: false,
    });
    const second = await start();
    expect(await call(second.layer, 'findings_summary')).toMatchObject({ suppressed: 1 });
  });
});
