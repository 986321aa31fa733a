/**
 * The workspace shared by replicas through one real redis-server: what is loaded, used,
 * snapshotted or triaged on one replica is there on the others, a replica started later catches
 * up, conflicting changes resolve in one order, and Redis holds none of it in clear.
 */
import { join } from 'node:path';
import {
  createCatalogLayer,
  SharedWorkspace,
  sampleEstateDir,
  Workspace,
  type WorkspaceOperation,
} from '@cloudg/catalog';
import type { Layer, ToolResult } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

const sealer = createVaultSealer({ key: 'workspace-test-vault-key' });
const INVENTORY = join(sampleEstateDir(), 'inventory');
let redis: TestRedis;
const states: RedisSharedState[] = [];
const followers: SharedWorkspace[] = [];

interface Replica {
  layer: Layer<Workspace>;
  workspace: Workspace;
  shared: SharedWorkspace;
}

async function replica(prefix: string, pollMs = 1000, compactAfter?: number): Promise<Replica> {
  const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
  states.push(state);
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
  const shared = new SharedWorkspace(workspace, state.operationLog<WorkspaceOperation>('workspace', sealer), {
    pollMs,
    ...(compactAfter === undefined ? {} : { compactAfter }),
  });
  followers.push(shared);
  await shared.start();
  const layer = createCatalogLayer({
    workspace,
    middleware: [shared.middleware],
    logger: pino({ level: 'silent' }),
  });
  return { layer, workspace, shared };
}

function body(result: ToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return result.structured as Record<string, unknown>;
}

async function listed(r: Replica): Promise<{ active_dataset: string | null; names: string[] }> {
  const out = body(await r.layer.callTool('list_datasets', {})) as {
    active_dataset: string | null;
    datasets: { name: string }[];
  };
  return { active_dataset: out.active_dataset, names: out.datasets.map((d) => d.name) };
}

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const f of followers) f.stop();
  for (const s of states) await s.close();
  await redis?.stop();
});

describe('a workspace shared by three replicas', () => {
  it('lists on B a dataset loaded on A, tells a listener on C without a call, and catches up a late replica', async () => {
    const [a, b, c] = [await replica('ws1:', 50), await replica('ws1:', 50), await replica('ws1:', 50)];
    const heard: string[] = [];
    c.layer.onChange((kind, uri) => heard.push(uri ?? kind));
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'estate-one' }));
    expect(await listed(b)).toEqual({ active_dataset: 'estate-one', names: ['estate-one'] });
    // C receives no call: the announcement (or, at the latest, its poll) applies the load.
    await expect.poll(() => heard, { timeout: 3000 }).toContain('cloudg://datasets');
    expect(c.workspace.names()).toEqual(['estate-one']);

    body(await b.layer.callTool('snapshot_dataset', { dataset: 'estate-one', new_name: 'estate-before' }));
    body(await c.layer.callTool('select_dataset', { name: 'estate-before' }));
    const late = await replica('ws1:');
    expect(await listed(late)).toEqual({
      active_dataset: 'estate-before',
      names: ['estate-one', 'estate-before'],
    });
    expect(await listed(a)).toEqual(await listed(late));
    body(await late.layer.callTool('unload_dataset', { name: 'estate-before' }));
    expect(await listed(a)).toEqual({ active_dataset: 'estate-one', names: ['estate-one'] });
  });

  it('applies without announcing again where a change fan-out already told every listener', async () => {
    const [a, b] = [await replica('ws5:', 50), await replica('ws5:', 50)];
    b.shared.announceReplayed = false;
    const heard: string[] = [];
    b.layer.onChange((kind, uri) => heard.push(uri ?? kind));
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'quiet' }));
    await expect.poll(() => b.workspace.names(), { timeout: 3000 }).toEqual(['quiet']);
    expect(heard).toEqual([]);
  });

  it('shows on A a suppression made on B, with the same reason, who and when', async () => {
    const [a, b] = [await replica('ws2:'), await replica('ws2:')];
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'triaged' }));
    const page = body(await b.layer.callTool('list_findings', { limit: 2 })) as { items: { id: string }[] };
    const ids = page.items.map((f) => f.id);
    expect(ids).toHaveLength(2);
    const done = body(
      await b.layer.callTool('suppress_findings', { finding_ids: ids, reason: 'accepted risk: lab account' }),
    );
    expect(done.suppressed).toEqual(ids);
    const onB = body(await b.layer.callTool('get_finding', { finding_id: ids[0] }));
    const onA = body(await a.layer.callTool('get_finding', { finding_id: ids[0] }));
    expect(onA).toEqual(onB);
    expect(JSON.stringify(onA)).toContain('accepted risk: lab account');
    const undone = body(await a.layer.callTool('unsuppress_findings', { finding_ids: [ids[1]] }));
    expect(undone.unsuppressed).toEqual([ids[1]]);
    const open = body(await b.layer.callTool('list_findings', { limit: 500 })) as { items: { id: string }[] };
    expect(open.items.map((f) => f.id)).toContain(ids[1]);
    expect(open.items.map((f) => f.id)).not.toContain(ids[0]);
  });

  it('shows on B the findings ingested and normalised on A, read from the same report', async () => {
    const [a, b] = [await replica('ws6:'), await replica('ws6:')];
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'scanned' }));
    const total = async (r: Replica) =>
      (
        body(await r.layer.callTool('list_findings', { limit: 1, include_suppressed: true })) as {
          total: number;
        }
      ).total;
    const report = join(sampleEstateDir(), 'scans', 'trivy.json');
    const ingested = body(await a.layer.callTool('ingest_reports', { reports: { trivy: [report] } }));
    expect(ingested.parsed).toBeGreaterThan(0);
    expect(ingested.findings_after).toBeGreaterThan(ingested.findings_before as number);
    expect(await total(b)).toBe(ingested.findings_after);
    expect(body(await b.layer.callTool('list_findings', { limit: 500 }))).toEqual(
      body(await a.layer.callTool('list_findings', { limit: 500 })),
    );
    body(await b.layer.callTool('normalise_findings', {}));
    expect(body(await a.layer.callTool('list_findings', { limit: 500 }))).toEqual(
      body(await b.layer.callTool('list_findings', { limit: 500 })),
    );
  });

  it('resolves two loads of one name on two replicas in one order: one loads, the other is told it exists', async () => {
    const [a, b, c] = [await replica('ws3:'), await replica('ws3:'), await replica('ws3:')];
    const [onA, onB] = await Promise.all([
      a.layer.callTool('load_dataset', { path: INVENTORY, name: 'contested' }),
      b.layer.callTool('load_dataset', { path: join(sampleEstateDir(), 'report'), name: 'contested' }),
    ]);
    const refused = [onA, onB].filter((r) => r.isError);
    expect(refused).toHaveLength(1);
    // The second writer ran on the state the first left: the same refusal as in one process.
    expect(refused[0]?.meta['cloudg/error_code']).toBe(-32602);
    expect(JSON.stringify(refused[0]?.content)).toContain('already exists');
    const sources = await Promise.all(
      [a, b, c].map(async (r) => {
        await r.shared.catchUp();
        return r.workspace.get('contested').source;
      }),
    );
    expect(new Set(sources).size).toBe(1);
  });

  it('refuses changes and reads while Redis is away, changes nothing, and goes on after a Redis that lost its data', async () => {
    const [a, b] = [await replica('ws7:'), await replica('ws7:')];
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'before-outage' }));
    expect((await listed(b)).names).toEqual(['before-outage']);
    await redis.pause();
    const refused = await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'during-outage' });
    expect(refused.meta['cloudg/error_code']).toBe('shared_state_unavailable');
    expect(a.workspace.names()).toEqual(['before-outage']);
    const read = await b.layer.callTool('list_datasets', {});
    expect(read.meta['cloudg/error_code']).toBe('shared_state_unavailable');
    // Redis comes back empty (no persistence): the log begins again under a new epoch.
    await redis.resume();
    await expect
      .poll(async () => !(await b.layer.callTool('list_datasets', {})).isError, { timeout: 10_000 })
      .toBe(true);
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'after-outage' }));
    expect((await listed(b)).names).toEqual(['before-outage', 'after-outage']);
  });

  it('compacts the log under the lease; a replica left behind and one started later rebuild from the snapshot', async () => {
    const [a, b] = [await replica('ws8:', 60_000, 4), await replica('ws8:', 60_000)];
    const call = async (name: string, args: Record<string, unknown>) =>
      body(await a.layer.callTool(name, args));
    await call('load_dataset', { path: INVENTORY, name: 'first' });
    expect((await listed(b)).names).toEqual(['first']);
    // B hears nothing more (its poll is a minute away) while the log is compacted at seq 4.
    await call('load_dataset', { path: join(sampleEstateDir(), 'report'), name: 'second' });
    await call('snapshot_dataset', { dataset: 'first', new_name: 'kept-copy' });
    await call('unload_dataset', { name: 'first' });
    await call('load_dataset', { path: INVENTORY, name: 'short-lived' });
    await call('unload_dataset', { name: 'short-lived' });
    const client = (states.at(-1) as RedisSharedState).client;
    expect(await client.get('ws8:workspace:base')).toBe('4');
    expect(await client.llen('ws8:workspace:log')).toBe(2);
    const snapshot = (await client.get('ws8:workspace:snapshot')) as string;
    expect(snapshot.length).toBeGreaterThan(0);
    expect(snapshot).not.toContain('kept-copy');

    const expected = await listed(a);
    expect(expected.names).toEqual(['second', 'kept-copy']);
    expect(await listed(b)).toEqual(expected);
    expect(b.shared.applied).toBe(6);
    const late = await replica('ws8:', 60_000);
    expect(await listed(late)).toEqual(expected);
    expect(late.workspace.get('kept-copy').assets.length).toBe(a.workspace.get('kept-copy').assets.length);
  });

  it('refuses a compaction up to a seq the log does not hold, and changes nothing', async () => {
    const state = await createRedisSharedState(redis.url, { keyPrefix: 'ws9:' });
    states.push(state);
    const log = state.operationLog<WorkspaceOperation>('workspace', sealer);
    const lease = await log.lease(new AbortController().signal);
    try {
      await lease.append([{ op: 'use', name: 'one' }]);
      await expect(lease.compact?.(5, [])).rejects.toThrow(/not compacted/);
      expect(await log.head()).toMatchObject({ seq: 1, base: 0 });
      expect((await log.read(0)).map((e) => e.operation)).toEqual([{ op: 'use', name: 'one' }]);
    } finally {
      await lease.release();
    }
  });

  it('keeps no path, dataset name, finding id or reason in clear in Redis', async () => {
    const [a, b] = [await replica('ws4:'), await replica('ws4:')];
    body(await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'secret-estate-name' }));
    const page = body(await b.layer.callTool('list_findings', { limit: 1 })) as { items: { id: string }[] };
    const id = page.items[0]?.id as string;
    body(await b.layer.callTool('suppress_findings', { finding_ids: [id], reason: 'reason-in-clear?' }));
    const dump = await dumpRedis(states[0] as RedisSharedState, 'ws4:*');
    expect(dump.length).toBeGreaterThan(0);
    for (const needle of ['secret-estate-name', INVENTORY, 'sample-estate', id, 'reason-in-clear'])
      expect(dump, needle).not.toContain(needle);
  });
});

/** Every key matching `pattern` and every value it holds, as one string. */
async function dumpRedis(state: RedisSharedState, pattern: string): Promise<string> {
  const keys = await state.client.keys(pattern);
  let out = keys.join('\n');
  for (const key of keys) {
    const type = await state.client.type(key);
    if (type === 'list') out += (await state.client.lrange(key, 0, -1)).join('\n');
    else if (type === 'hash') out += JSON.stringify(await state.client.hgetall(key));
    else if (type === 'string') out += (await state.client.get(key)) ?? '';
    else if (type === 'zset') out += (await state.client.zrange(key, '0', '-1', 'WITHSCORES')).join('\n');
    else if (type === 'set') out += (await state.client.smembers(key)).join('\n');
  }
  return out;
}
