/**
 * The numbered changes against someone who can publish on `<prefix>changes` (or write the kept
 * list), on a real redis-server: a change counts only at the epoch and number it was sealed for,
 * so a forged message costs no reads of Redis, and a real change captured and published again
 * under the next number is neither told nor in the way of the real next change.
 */
import type { ChangeKind } from '@cloudg/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisChangeFanout } from '../src/change-fanout.js';
import { ReplicaBus } from '../src/replica-bus.js';
import { REPLICA_SEALER } from './support/http-replicas.js';
import { sleep } from './support/mcp.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
let admin: Redis;

beforeAll(async () => {
  redis = await TestRedis.start();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

async function scriptCalls(): Promise<number> {
  const info = String(await admin.info('commandstats'));
  let total = 0;
  for (const m of info.matchAll(/cmdstat_(evalsha|eval):calls=(\d+)/g)) total += Number(m[2]);
  return total;
}

/** A replica's fan-out on its own connection, and what its listeners were told. */
async function replica(prefix: string) {
  const client = new Redis(redis.url);
  const bus = new ReplicaBus(client, prefix);
  const fanout = new RedisChangeFanout(client, prefix, bus);
  fanout.sealWith(REPLICA_SEALER);
  await fanout.ready();
  const told: [ChangeKind, string | undefined][] = [];
  fanout.subscribe((kind, uri) => told.push([kind, uri]));
  return {
    fanout,
    told,
    close() {
      fanout.close();
      bus.close();
      client.disconnect();
    },
  };
}

it('one forged message on the changes channel costs the replicas no read of Redis', async () => {
  const a = await replica('forged:');
  const b = await replica('forged:');
  await a.fanout.spread('tools', undefined);
  await sleep(50);
  const before = await scriptCalls();
  await admin.publish('forged:changes', 'not-the-epoch 1 anything');
  const [epoch] = (await admin.hmget('forged:changes:head', 'e')) as [string];
  await admin.publish('forged:changes', `${epoch} 9007199254740991 anything`);
  await sleep(1000);
  expect((await scriptCalls()) - before).toBeLessThan(3);
  // Still following: the next real change reaches B.
  await a.fanout.spread('prompts', undefined);
  await sleep(100);
  expect(b.told).toEqual([
    ['tools', undefined],
    ['prompts', undefined],
  ]);
  a.close();
  b.close();
});

it('a real change published again under the next number is not told, and the real next one is', async () => {
  const a = await replica('captured:');
  const b = await replica('captured:');
  const listener = new Redis(redis.url);
  const heard: string[] = [];
  listener.on('message', (_channel: string, text: string) => heard.push(text));
  await listener.subscribe('captured:changes');
  await a.fanout.spread('resource', 'memo://status');
  await sleep(100);
  const [epoch, , sealed] = (heard[0] ?? '').split(' ') as [string, string, string];
  // Played again as change 2, before A announces its own change 2.
  await admin.publish('captured:changes', `${epoch} 2 ${sealed}`);
  await sleep(100);
  expect(b.told).toEqual([['resource', 'memo://status']]);
  await a.fanout.spread('tools', undefined);
  await sleep(100);
  expect(b.told).toEqual([
    ['resource', 'memo://status'],
    ['tools', undefined],
  ]);
  listener.disconnect();
  a.close();
  b.close();
});

it('announcements from two replicas at once are each numbered once, sealed for their number', async () => {
  const a = await replica('both:');
  const b = await replica('both:');
  const c = await replica('both:');
  await Promise.all([
    a.fanout.spread('tools', undefined),
    b.fanout.spread('prompts', undefined),
    a.fanout.spread('resources', undefined),
    b.fanout.spread('tools', undefined),
  ]);
  await sleep(100);
  expect(await admin.hget('both:changes:head', 's')).toBe('4');
  expect(c.told.map(([kind]) => kind).sort()).toEqual(['prompts', 'resources', 'tools', 'tools']);
  a.close();
  b.close();
  c.close();
});

it('a real change of an epoch Redis lost costs one read, then nothing, however often it is played again', async () => {
  const a = await replica('lost:');
  const b = await replica('lost:');
  let missed = 0;
  b.fanout.onMissed(() => {
    missed += 1;
  });
  const listener = new Redis(redis.url);
  const heard: string[] = [];
  listener.on('message', (_channel: string, text: string) => heard.push(text));
  await listener.subscribe('lost:changes');
  await a.fanout.spread('tools', undefined);
  await sleep(100);
  const old = heard[0] ?? '';
  // Redis loses the changes; A's next announcement starts a new epoch, which B reads as a miss.
  await admin.del('lost:changes:head', 'lost:changes:log');
  await a.fanout.spread('prompts', undefined);
  await sleep(100);
  expect(missed).toBe(1);
  const before = await scriptCalls();
  for (let i = 0; i < 20; i++) await admin.publish('lost:changes', old);
  await sleep(300);
  expect((await scriptCalls()) - before).toBeLessThan(3);
  // Still following the new epoch.
  await a.fanout.spread('resources', undefined);
  await sleep(100);
  expect(b.told.map(([kind]) => kind)).toEqual(['tools', 'resources']);
  listener.disconnect();
  a.close();
  b.close();
});

it('a burst of announcements on one replica reaches another replica whole and in the order announced', async () => {
  const a = await replica('burst:');
  const b = await replica('burst:');
  const uris = Array.from({ length: 15 }, (_, i) => `memo://item-${i}`);
  // As a workspace change does: several announcements at once, none awaited.
  for (const uri of uris) a.fanout.announce('resource', uri);
  for (let i = 0; i < 100 && b.told.length < uris.length; i++) await sleep(20);
  expect(b.told.map(([, uri]) => uri)).toEqual(uris);
  expect(await admin.hget('burst:changes:head', 's')).toBe(String(uris.length));
  a.close();
  b.close();
});
