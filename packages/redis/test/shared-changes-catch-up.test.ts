/**
 * Changes announced while a replica's pub/sub connection to Redis is down reach its 2026-era
 * listeners once the connection is back, in order and once, filtered as they asked; a listener
 * on the announcing replica hears each change once too. The replica's subscriber connection is
 * cut with CLIENT KILL and kept from reconnecting (maxclients) while another replica announces,
 * on a real redis-server. Past the changes Redis keeps (or after Redis lost its data), the
 * replica's listeners are told that changes were missed, once.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisChangeFanout } from '../src/change-fanout.js';
import { ReplicaBus } from '../src/replica-bus.js';
import { Stream } from './support/http-client.js';
import {
  type HttpReplica,
  LIVE_HEARTBEAT_MS,
  REPLICA_SEALER,
  startReplicas,
} from './support/http-replicas.js';
import { listenRequest, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();

async function listen(replica: HttpReplica, id: string, notifications: Record<string, unknown>) {
  const { headers, body } = listenRequest(id, notifications);
  const stream = await Stream.open(replica.port, headers, body);
  await stream.until((f) => f.length >= 1);
  return stream;
}

const told = (stream: Stream) =>
  stream.messages.slice(1).map((m) => [m.method, (m.params as { uri?: string }).uri]);

it('a listener on B whose pub/sub connection was cut while A announced is told once B is back', async () => {
  const options = { heartbeats: { A: LIVE_HEARTBEAT_MS, B: LIVE_HEARTBEAT_MS } };
  const [a] = await startReplicas(env.redis.url, ['A'], 'catch-up:', options);
  const before = await env.subscriberIds();
  const [b] = await startReplicas(env.redis.url, ['B'], 'catch-up:', options);
  env.replicas = [a as HttpReplica, b as HttpReplica];
  const bSubscriber = [...(await env.subscriberIds())].filter((id) => !before.has(id));
  expect(bSubscriber).toHaveLength(1);
  const onB = await listen(b as HttpReplica, 'l-b', {
    toolsListChanged: true,
    resourceSubscriptions: ['memo://status'],
  });
  const onA = await listen(a as HttpReplica, 'l-a', { toolsListChanged: true });

  // B's subscriber is cut and cannot come back: Redis takes no new connection for now.
  await env.admin.config('SET', 'maxclients', '1');
  await env.admin.call('CLIENT', 'KILL', 'ID', bSubscriber[0] as string);
  a?.layer.notifyChange('tools');
  a?.layer.notifyChange('prompts');
  a?.layer.notifyChange('resource', 'memo://status');
  a?.layer.notifyChange('resource', 'memo://other');
  await sleep(300);
  expect(told(onB)).toEqual([]);

  await env.admin.config('SET', 'maxclients', '10000');
  // Told on reconnecting, before anything else is announced.
  await onB.until((f) => f.length >= 3, 10_000);
  expect(told(onB)).toEqual([
    ['notifications/tools/list_changed', undefined],
    ['notifications/resources/updated', 'memo://status'],
  ]);
  // And what is announced after, on the channel again.
  a?.layer.notifyChange('tools');
  await onB.until((f) => f.length >= 4);
  await sleep(200);
  expect(told(onB)).toEqual([
    ['notifications/tools/list_changed', undefined],
    ['notifications/resources/updated', 'memo://status'],
    ['notifications/tools/list_changed', undefined],
  ]);
  // The announcing replica heard its own changes once, not again from the log.
  expect(told(onA)).toEqual([
    ['notifications/tools/list_changed', undefined],
    ['notifications/tools/list_changed', undefined],
  ]);
  onA.close();
  onB.close();
}, 30_000);

describe('more missed than Redis keeps', () => {
  /** Two replicas' fan-outs keeping the last `kept` changes; B's subscriber connection's id. */
  async function pair(prefix: string, kept: number) {
    const made: { client: Redis; bus: ReplicaBus; fanout: RedisChangeFanout }[] = [];
    let bSubscriber = '';
    for (const name of ['A', 'B']) {
      const before = await env.subscriberIds();
      const client = new Redis(env.redis.url);
      const bus = new ReplicaBus(client, prefix);
      const fanout = new RedisChangeFanout(client, prefix, bus, { kept });
      fanout.sealWith(REPLICA_SEALER);
      await fanout.ready();
      made.push({ client, bus, fanout });
      if (name === 'B') bSubscriber = [...(await env.subscriberIds())].find((id) => !before.has(id)) ?? '';
    }
    closers.push(() => {
      for (const { client, bus, fanout } of made) {
        fanout.close();
        bus.close();
        client.disconnect();
      }
    });
    const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
    const heard: string[] = [];
    let missed = 0;
    b.fanout.subscribe((kind, uri) => heard.push(uri ? `${kind} ${uri}` : kind));
    b.fanout.onMissed(() => {
      missed += 1;
    });
    return { a: a.fanout, bSubscriber, heard, missed: () => missed };
  }

  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  async function cut(id: string): Promise<void> {
    await env.admin.config('SET', 'maxclients', '1');
    await env.admin.call('CLIENT', 'KILL', 'ID', id);
  }

  async function until(test: () => boolean, ms = 10_000): Promise<void> {
    for (let waited = 0; waited < ms && !test(); waited += 20) await sleep(20);
  }

  it('listeners are told that changes were missed, once, instead of the ones still kept', async () => {
    const { a, bSubscriber, heard, missed } = await pair('kept:', 3);
    await a.spread('tools', undefined);
    await until(() => heard.length === 1);
    expect(heard).toEqual(['tools']);
    await cut(bSubscriber);
    for (const uri of ['memo://1', 'memo://2', 'memo://3', 'memo://4', 'memo://5'])
      await a.spread('resource', uri);
    await env.admin.config('SET', 'maxclients', '10000');
    await until(() => missed() > 0);
    expect(missed()).toBe(1);
    expect(heard).toEqual(['tools']);
    // From there on, one by one again.
    await a.spread('prompts', undefined);
    await until(() => heard.length === 2);
    await sleep(100);
    expect(heard).toEqual(['tools', 'prompts']);
    expect(missed()).toBe(1);
  }, 30_000);

  it('a Redis that lost its data meanwhile: what changed is unknown, so listeners are told they missed changes', async () => {
    const { a, bSubscriber, heard, missed } = await pair('lost:', 100);
    await a.spread('tools', undefined);
    await until(() => heard.length === 1);
    await cut(bSubscriber);
    await env.admin.flushall();
    await a.spread('prompts', undefined);
    await env.admin.config('SET', 'maxclients', '10000');
    await until(() => missed() > 0);
    expect(missed()).toBe(1);
    expect(heard).toEqual(['tools']);
    await a.spread('resources', undefined);
    await until(() => heard.length === 2);
    expect(heard).toEqual(['tools', 'resources']);
  }, 30_000);
});
