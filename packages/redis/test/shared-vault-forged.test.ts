/**
 * Someone who can write to Redis but has no vault key rewrites a holder entry of the shared vault
 * (HSET vault:holders): a replica does not reveal, through it, a mapping other than the one the
 * pseudonym stands for. On a real redis-server.
 */
import { TokenVault } from '@cloudg/privacy';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

const key = 'replica-test-key';
// Under this key the first candidates of these two single-label hostnames are the same
// pseudonym (found by search: a 32-bit format collides now and then).
const FIRST = 'db19655';
const SECOND = 'db41907';

let redis: TestRedis;
const states: RedisSharedState[] = [];
beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const state of states) await state.close();
  await redis?.stop();
});

/** The holders hash as `pseudonym key -> [reference, value key]`. */
async function holders(state: RedisSharedState, prefix: string): Promise<Map<string, [string, string]>> {
  const all = await state.client.hgetall(`${prefix}vault:holders`);
  return new Map(Object.entries(all).map(([k, v]) => [k, v.split(' ') as [string, string]]));
}

it('a holder entry pointed at the mapping that lost a collision reveals nothing', async () => {
  const prefix = 'forged:';
  const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
  states.push(state);
  const store = state.vaultStore;
  const a = new TokenVault({ key });
  a.shareWith(store);
  const p = a.pseudonymize(FIRST, 'hostname');
  await a.syncShared(store);
  const [[pKey, [aRef]]] = [...(await holders(state, prefix))] as [[string, [string, string]]];
  // B issues SECOND under the same pseudonym (a collision it loses) and a mapping that takes, in
  // one batch, which Redis keeps for the winner; its rerun files SECOND under its next candidate.
  const b = new TokenVault({ key });
  b.shareWith(store);
  expect(b.pseudonymize(SECOND, 'hostname')).toBe(p);
  b.pseudonymize('web-1', 'hostname');
  expect(await b.syncShared(store)).toBe(true);
  const second = b.pseudonymize(SECOND, 'hostname');
  expect(second).not.toBe(p);
  await b.syncShared(store);
  const filed = await holders(state, prefix);
  expect(filed.size).toBe(3);
  const aBatch = aRef.split(':')[0];
  const refs = [...filed.values()].map(([ref]) => ref);
  // B's first batch: the one holding web-1 (row 1); SECOND lost at row 0.
  const bBatch = refs.find((r) => r.endsWith(':1'))?.split(':')[0] as string;
  expect(bBatch).not.toBe(aBatch);
  // SECOND's value key is the one filed with its rerun's mapping (the batch neither A's nor B's first).
  const secondValueKey = [...filed.values()].find(
    ([ref]) => ![aBatch, bBatch].includes(ref.split(':')[0] as string),
  )?.[1];
  expect(secondValueKey).toBeDefined();
  // The writer points P at the losing row, with the value key that row's value is filed under.
  await state.client.hset(`${prefix}vault:holders`, pKey, `${bBatch}:0 ${secondValueKey}`);
  const c = new TokenVault({ key });
  c.shareWith(store);
  expect(c.detokenize(p)).toBeUndefined();
  await c.syncShared(store);
  expect(c.detokenize(p)).toBeUndefined();
  // And with a made-up value key.
  await state.client.hset(`${prefix}vault:holders`, pKey, `${bBatch}:0 forged`);
  c.detokenize(p);
  await c.syncShared(store);
  expect(c.detokenize(p)).toBeUndefined();
  // Put back, the genuine holder reveals.
  await state.client.hset(`${prefix}vault:holders`, pKey, `${aRef} ${filed.get(pKey)?.[1]}`);
  c.detokenize(p);
  await c.syncShared(store);
  expect(c.detokenize(p)).toBe(FIRST);
  expect(a.detokenize(p)).toBe(FIRST);
});

it('a holder entry pointed at another genuine mapping is neither revealed nor adopted by a claim', async () => {
  const prefix = 'forged-other:';
  const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
  states.push(state);
  const store = state.vaultStore;
  const a = new TokenVault({ key });
  a.shareWith(store);
  const p = a.pseudonymize('db-1', 'hostname');
  await a.syncShared(store);
  const q = a.pseudonymize('db-2', 'hostname');
  await a.syncShared(store);
  const filed = await holders(state, prefix);
  const [pKey] = [...filed.keys()] as [string];
  const qEntry = [...filed.values()][1] as [string, string];
  await state.client.hset(`${prefix}vault:holders`, pKey, qEntry.join(' '));
  const c = new TokenVault({ key });
  c.shareWith(store);
  c.detokenize(p);
  await c.syncShared(store);
  expect(c.detokenize(p)).toBeUndefined();
  expect(c.lookup('db-2', 'hostname')).toBeUndefined();
  // A replica claiming db-1 -> P is told db-2's row holds it: the claim fails, nothing adopted.
  const d = new TokenVault({ key });
  d.shareWith(store);
  expect(d.pseudonymize('db-1', 'hostname')).toBe(p);
  await expect(d.syncShared(store)).rejects.toMatchObject({ code: 'vault_authentication' });
  expect(d.lookup('db-2', 'hostname')).toBeUndefined();
  expect(d.lookup('db-1', 'hostname')).toBeUndefined();
  expect(q).not.toBe(p);
});
