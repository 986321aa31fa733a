import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CloudgEngine, configureLive, loadPath, sampleEstateDir } from '@cloudg/catalog';
import { Principal } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLayerFromOptions } from '../src/index.js';

/** An engine that returns the sample estate's inventory. */
const engine: CloudgEngine = {
  mapInventory: async (r) => ({
    ...(await loadPath(join(sampleEstateDir(), 'inventory'), { signal: r.signal })).data,
  }),
  collect: async (r) => ({
    ...(await loadPath(join(sampleEstateDir(), 'inventory'), { signal: r.signal })).data,
  }),
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-server-live-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the engine option', () => {
  it('without an engine the collecting tools are absent; with one they are served', async () => {
    const plain = await createLayerFromOptions({ policy: 'open', cwd: dir, outputDir: join(dir, 'out') });
    const names = plain.layer.listTools(Principal.local()).map((t) => t.name);
    expect(names).toContain('rate_limit_status');
    expect(names).not.toContain('map_inventory');
    const live = await createLayerFromOptions({
      policy: 'open',
      cwd: dir,
      outputDir: join(dir, 'out'),
      engine,
    });
    const liveNames = live.layer.listTools(Principal.local()).map((t) => t.name);
    expect(liveNames).toEqual(expect.arrayContaining(['map_inventory', 'collect_assets', 'run_pipeline']));
  });

  it('restoreLive saves each collection and loads the saved ones when the next server starts', async () => {
    const first = await createLayerFromOptions({
      policy: 'open',
      cwd: dir,
      outputDir: join(dir, 'out'),
      engine,
      restoreLive: true,
    });
    configureLive(first.workspace, {
      preflight: { env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' } },
    });
    const result = await first.layer.callTool('collect_assets', {
      providers: ['aws'],
      name: 'before-restart',
    });
    expect(result.isError).toBe(false);
    expect((result.structured as { errors: string[] }).errors).toEqual([]);
    const second = await createLayerFromOptions({
      policy: 'open',
      cwd: dir,
      outputDir: join(dir, 'out'),
      engine,
      restoreLive: true,
    });
    expect(second.workspace.names()).toEqual(['before-restart']);
    expect(second.workspace.get('before-restart').kind).toBe('live');
    const without = await createLayerFromOptions({ policy: 'open', cwd: dir, outputDir: join(dir, 'out') });
    expect(without.workspace.names()).toEqual([]);
  });
});
