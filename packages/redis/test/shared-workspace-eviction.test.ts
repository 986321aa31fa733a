/**
 * `max_datasets` across replicas sharing one real redis-server (issue 20): evictions are the
 * writer's, carried by the log, so replicas whose own preloads differ, one left behind through a
 * compaction and one started later hold the same datasets made through the log, and none brings
 * back a dataset evicted before the compaction.
 */
import { join } from 'node:path';
import {
  createCatalogLayer,
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

const sealer = createVaultSealer({ key: 'eviction-test-vault-key' });
const INVENTORY = join(sampleEstateDir(), 'inventory');
const REPORT = join(sampleEstateDir(), 'report');
let redis: TestRedis;
const states: RedisSharedState[] = [];
const followers: SharedWorkspace[] = [];

interface Replica {
  layer: Layer<Workspace>;
  workspace: Workspace;
  /** Its datasets apart from its own preloads (the sample report, kind `report`). */
  fromLog(): string[];
}

async function replica(options: { preloads?: string[]; compactAfter?: number } = {}): Promise<Replica> {
  const state = await createRedisSharedState(redis.url, { keyPrefix: 'evict:' });
  states.push(state);
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()], maxDatasets: 2 });
  for (const name of options.preloads ?? []) await workspace.preload(REPORT, { name });
  const shared = new SharedWorkspace(workspace, state.operationLog<WorkspaceOperation>('workspace', sealer), {
    pollMs: 60_000,
    ...(options.compactAfter === undefined ? {} : { compactAfter: options.compactAfter }),
  });
  followers.push(shared);
  await shared.start();
  const layer = createCatalogLayer({
    workspace,
    middleware: [shared.middleware],
    logger: pino({ level: 'silent' }),
  });
  const fromLog = () => workspace.names().filter((n) => workspace.get(n).kind !== 'report');
  return { layer, workspace, fromLog };
}

async function call(r: Replica, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await r.layer.callTool(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
}

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const f of followers) f.stop();
  for (const s of states) await s.close();
  await redis?.stop();
});

describe('max_datasets across replicas', () => {
  it('replicas with different preloads, one rebuilt after a compaction and one started later hold the same datasets', async () => {
    const a = await replica({ compactAfter: 6 });
    const b = await replica({ preloads: ['own-b1', 'own-b2'] });
    await call(a, 'load_dataset', { path: INVENTORY, name: 'one' });
    await call(b, 'load_dataset', { path: INVENTORY, name: 'two' });
    expect(b.fromLog()).toEqual(['one', 'two']);
    // B hears nothing more (its poll is a minute away) while A evicts and the log is compacted.
    await call(a, 'load_dataset', { path: INVENTORY, name: 'three' });
    await call(a, 'load_dataset', { path: INVENTORY, name: 'four' });
    await call(a, 'select_dataset', { name: 'three' });
    const client = (states.at(-1) as RedisSharedState).client;
    // load one, load two, load three + eviction of one, load four + eviction of two: compacted at 6.
    expect(await client.get('evict:workspace:base')).toBe('6');
    expect(a.fromLog()).toEqual(['three', 'four']);

    await call(b, 'list_datasets', {});
    expect(b.fromLog()).toEqual(['three', 'four']);
    expect(b.workspace.names()).toEqual(['own-b1', 'own-b2', 'three', 'four']);
    const late = await replica({ preloads: ['own-late'] });
    expect(late.fromLog()).toEqual(['three', 'four']);
    expect([a, b, late].map((r) => r.workspace.activeName)).toEqual(['three', 'three', 'three']);
  });
});
