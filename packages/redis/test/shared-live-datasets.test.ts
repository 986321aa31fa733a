/**
 * Live datasets shared by replicas through one real redis-server: a collection on A is stored
 * under the output directory the replicas share and a `live` operation naming it is appended to
 * the workspace log before A answers, so B lists it; a caller of B who joined A's running
 * collection through the shared live guard is told a dataset name B then has.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CloudgEngine,
  type CollectRequest,
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  type EngineCollection,
  liveState,
  loadPath,
  SharedWorkspace,
  sampleEstateDir,
  Workspace,
  type WorkspaceOperation,
} from '@cloudg/catalog';
import type { Layer } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

const sealer = createVaultSealer({ key: 'live-datasets-test-vault-key' });
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00', AWS_SECRET_ACCESS_KEY: 'example', PATH: '' };

/** "Collects" the sample estate, held until the test releases it (or the call aborts). */
class HeldSampleEngine implements CloudgEngine {
  calls = 0;
  #release: (() => void)[] = [];
  #waiting: (() => void)[] = [];

  release(): void {
    for (const r of this.#release.splice(0)) r();
  }

  /** Resolves once a collection is waiting to be released. */
  started(): Promise<void> {
    return this.#release.length > 0 ? Promise.resolve() : new Promise((r) => this.#waiting.push(r));
  }

  mapInventory(request: CollectRequest): Promise<EngineCollection> {
    return this.collect(request);
  }

  async collect(request: CollectRequest): Promise<EngineCollection> {
    this.calls += 1;
    await new Promise<void>((resolve, reject) => {
      this.#release.push(resolve);
      for (const w of this.#waiting.splice(0)) w();
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });
    const loaded = await loadPath(join(sampleEstateDir(), 'inventory'), { signal: request.signal });
    return {
      assets: loaded.data.assets ?? [],
      edges: loaded.data.edges ?? [],
      providers: [...request.providers],
    };
  }
}

let redis: TestRedis;
let dir: string;
const states: RedisSharedState[] = [];
const followers: SharedWorkspace[] = [];

interface Replica {
  layer: Layer<Workspace>;
  workspace: Workspace;
  engine: HeldSampleEngine;
}

async function replica(prefix: string): Promise<Replica> {
  const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
  states.push(state);
  const workspace = new Workspace({
    allowedRoots: [sampleEstateDir(), dir],
    outputDir: join(dir, 'out'),
    cwd: dir,
  });
  const shared = new SharedWorkspace(workspace, state.operationLog<WorkspaceOperation>('workspace', sealer), {
    pollMs: 60_000,
  });
  followers.push(shared);
  await shared.start();
  configureLive(workspace, {
    preflight: { env: CREDENTIALS, homeDir: dir, probe: async () => null },
    shared: { ledger: state.liveGuardLedger(sealer) },
  });
  const engine = new HeldSampleEngine();
  const layer = createCatalogLayer({
    workspace,
    registry: defaultRegistry({ live: { engine } }),
    middleware: [shared.middleware],
    logger: pino({ level: 'silent' }),
  });
  return { layer, workspace, engine };
}

beforeAll(async () => {
  redis = await TestRedis.start();
  dir = await mkdtemp(join(tmpdir(), 'cloudg-redis-live-'));
});
afterAll(async () => {
  for (const f of followers) f.stop();
  for (const s of states) await s.close();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

const ARGS = { providers: ['aws'], regions: ['us-east-1'], name: 'live-aws' };

describe('live datasets across replicas', () => {
  it('a caller of B joined to the collection running on A gets a dataset B has, and it is active on both', async () => {
    const [a, b] = [await replica('live1:'), await replica('live1:')];
    const onA = a.layer.callTool('map_inventory', ARGS);
    await a.engine.started();
    const onB = b.layer.callTool('map_inventory', ARGS);
    // B joins A's running collection (its own engine is never asked); once it has, A's is let go.
    const deadline = Date.now() + 15_000;
    while (liveState(b.workspace).guard.status().joined === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    a.engine.release();
    const [fromA, fromB] = await Promise.all([onA, onB]);
    expect(fromA.isError, JSON.stringify(fromA.content)).toBe(false);
    expect(fromB.isError, JSON.stringify(fromB.content)).toBe(false);
    expect(b.engine.calls).toBe(0);
    expect(fromB.structured).toMatchObject({ dataset: 'live-aws', joined: true });
    // Right after the joined call answered, without another call first.
    expect(b.workspace.has('live-aws')).toBe(true);
    expect(b.workspace.get('live-aws').kind).toBe('live');
    expect(b.workspace.get('live-aws').assets.length).toBe(a.workspace.get('live-aws').assets.length);
    expect(b.workspace.activeName).toBe('live-aws');
  });

  it('a replica started later finds the collection in the log and reads it from the shared output directory', async () => {
    const a = await replica('live2:');
    const collecting = a.layer.callTool('map_inventory', { ...ARGS, name: 'later' });
    await a.engine.started();
    a.engine.release();
    expect((await collecting).isError).toBe(false);
    const c = await replica('live2:');
    const listed = (await c.layer.callTool('list_datasets', {})).structured as {
      active_dataset: string;
      datasets: { name: string }[];
    };
    expect(listed.active_dataset).toBe('later');
    expect(listed.datasets.map((d) => d.name)).toEqual(['later']);
  });
});
