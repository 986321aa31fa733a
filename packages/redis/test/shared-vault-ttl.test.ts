/**
 * The vault's `ttl_seconds` as one clock over replicas sharing a real redis-server: a use on any
 * replica restarts it for all, a pseudonym no replica used for the TTL reveals nowhere and leaves
 * Redis, and the same value then gets the same pseudonym again. The vaults run on an injected
 * clock, so the TTL passes without sleeping.
 */
import { join } from 'node:path';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import { Policy } from '@cloudg/policy';
import { TokenVault } from '@cloudg/privacy';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
const states: RedisSharedState[] = [];
const T0 = 1_764_000_000_000;
const TTL = 60;
const ACCOUNT = '123456789012';

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const s of states) await s.close();
  await redis?.stop();
});

/** Two replicas' vaults on one clock of the test's, each with its own connection to Redis. */
async function replicas(prefix: string, ttlSeconds: number | null = TTL) {
  const time = { now: T0 };
  const make = async () => {
    const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
    states.push(state);
    const vault = new TokenVault({ key: 'ttl-key', ttlSeconds, clock: () => time.now });
    vault.shareWith(state.vaultStore);
    return { vault, store: state.vaultStore, client: state.client };
  };
  const a = await make();
  const b = await make();
  /** What a pass and its sync do: the reversal, then again once the store answered. */
  const reveal = async (r: typeof a, pseudonym: string) => {
    const first = r.vault.detokenize(pseudonym);
    if (first !== undefined) return first;
    await r.vault.syncShared(r.store);
    return r.vault.detokenize(pseudonym);
  };
  const keys = async () => ({
    holders: await a.client.hlen(`${prefix}vault:holders`),
    used: await a.client.zcard(`${prefix}vault:used`),
    batches: (await a.client.keys(`${prefix}vault:batch:*`)).length,
    live: await a.client.hlen(`${prefix}vault:live`),
  });
  return { time, a, b, reveal, keys };
}

describe('the vault TTL shared by replicas', () => {
  it('a use on A keeps the pseudonym revealing on B after B alone would have expired it', async () => {
    const { time, a, b, reveal } = await replicas('ttl-use:');
    const pseudonym = a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    await a.vault.syncShared(a.store);
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    time.now = T0 + 40_000;
    expect(a.vault.pseudonymize(ACCOUNT, 'aws_account_id')).toBe(pseudonym);
    await a.vault.syncShared(a.store);
    // 80 s after B's last use of it, 40 s after A's.
    time.now = T0 + 80_000;
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
  });

  it('a use told only by the sweep counts too, and the sweep drops what no replica used', async () => {
    const { time, a, b, reveal, keys } = await replicas('ttl-sweep:');
    const pseudonym = a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    await a.vault.syncShared(a.store);
    time.now = T0 + 10_000;
    a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    // The store heard of the mapping 10 s ago: the sync leaves this use to the sweep.
    await a.vault.syncShared(a.store);
    const lastUse = async () =>
      Number((await a.client.zrange('ttl-sweep:vault:used', '0', '0', 'WITHSCORES'))[1]);
    expect(await lastUse()).toBe(T0);
    expect(await a.vault.sweepShared(a.store)).toBe(0);
    expect(await lastUse()).toBe(T0 + 10_000);
    time.now = T0 + 65_000;
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    // Unused everywhere since B's reveal at 65 s.
    time.now = T0 + 65_000 + TTL * 1000 + 1;
    expect(await keys()).toEqual({ holders: 1, used: 1, batches: 1, live: 1 });
    expect(await a.vault.sweepShared(a.store)).toBe(1);
    expect(await keys()).toEqual({ holders: 0, used: 0, batches: 0, live: 0 });
    expect(await reveal(a, pseudonym)).toBeUndefined();
    expect(await reveal(b, pseudonym)).toBeUndefined();
  });

  it('unused on every replica for the TTL it reveals nowhere, its entry leaves Redis, and the value gets the same pseudonym again', async () => {
    const { time, a, b, reveal, keys } = await replicas('ttl-gone:');
    const pseudonym = a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    await a.vault.syncShared(a.store);
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    time.now = T0 + TTL * 1000 + 1;
    // The reveal that finds it expired drops it from Redis, in the same script.
    expect(await reveal(b, pseudonym)).toBeUndefined();
    expect(await keys()).toEqual({ holders: 0, used: 0, batches: 0, live: 0 });
    expect(await reveal(a, pseudonym)).toBeUndefined();
    expect(b.vault.stats().counters.expired).toBe(1);
    // Seen again: derived again, the same pseudonym, filed and revealing everywhere.
    expect(a.vault.pseudonymize(ACCOUNT, 'aws_account_id')).toBe(pseudonym);
    await a.vault.syncShared(a.store);
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    expect((await keys()).holders).toBe(1);
  });

  it('a replica that only issues the value again restarts the clock for the others', async () => {
    const { time, a, b, reveal } = await replicas('ttl-reissue:');
    const pseudonym = a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    await a.vault.syncShared(a.store);
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    // B pseudonymises the value 50 s on: a use; A reveals 100 s on, 50 s after it.
    time.now = T0 + 50_000;
    expect(b.vault.pseudonymize(ACCOUNT, 'aws_account_id')).toBe(pseudonym);
    await b.vault.syncShared(b.store);
    await b.vault.sweepShared(b.store);
    time.now = T0 + 100_000;
    expect(await reveal(a, pseudonym)).toBe(ACCOUNT);
  });

  it("a vault file's mappings keep their own last use when a replica files them", async () => {
    const { time, a, b, reveal } = await replicas('ttl-file:');
    const pseudonym = new TokenVault({ key: 'ttl-key' }).pseudonymize(ACCOUNT, 'aws_account_id');
    const lastUsed = (T0 - 50_000) / 1000;
    a.vault.importMappings({
      format: 'cloudg-vault/1',
      key_id: a.vault.keyId,
      entries: [['global', 'aws_account_id', ACCOUNT, pseudonym, lastUsed, lastUsed]],
    });
    expect((await a.vault.shareHeld(a.store)).kept).toBe(1);
    // Last used 50 s before the claim: 11 s after it, the TTL has run out everywhere.
    time.now = T0 + 11_000;
    expect(await reveal(b, pseudonym)).toBeUndefined();
    expect(await reveal(a, pseudonym)).toBeUndefined();
  });

  it('without a TTL nothing expires and Redis keeps no use times', async () => {
    const { time, a, b, reveal, keys } = await replicas('ttl-none:', null);
    const pseudonym = a.vault.pseudonymize(ACCOUNT, 'aws_account_id');
    await a.vault.syncShared(a.store);
    time.now = T0 + 10 * 365 * 86_400_000;
    expect(await reveal(b, pseudonym)).toBe(ACCOUNT);
    expect(await a.vault.sweepShared(a.store)).toBe(0);
    expect(await keys()).toEqual({ holders: 1, used: 0, batches: 1, live: 0 });
  });

  it('through the strict policy: a page on A keeps a pseudonym revealing on B, and once unused everywhere get_asset refuses it on both', async () => {
    const time = { now: T0 };
    const replica = async () => {
      const state = await createRedisSharedState(redis.url, { keyPrefix: 'ttl-layers:' });
      states.push(state);
      const policy = Policy.fromProfile('strict', {
        vault: new TokenVault({ key: 'ttl-key', ttlSeconds: TTL, clock: () => time.now }),
        vaultStore: state.vaultStore,
        rateStore: state.rateStore,
        clock: () => time.now / 1000,
        logger: pino({ level: 'silent' }),
      });
      const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
      await workspace.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
      return createCatalogLayer({ workspace, policy, logger: pino({ level: 'silent' }) });
    };
    const [a, b] = [await replica(), await replica()];
    const ids = (r: { structured?: unknown }) =>
      ((r.structured as { items?: { id: string }[] }).items ?? []).map((x) => x.id);
    const pseudonym = ids(await a.callTool('find_assets', { query: 'web' }))[0] as string;
    expect(pseudonym).toMatch(/^res-[0-9a-f]{10}$/);
    expect((await b.callTool('get_asset', { ref: pseudonym })).isError).toBe(false);
    // 40 s on, A lists it again; 80 s on, B (whose own use was at 0 s) still reveals it.
    time.now = T0 + 40_000;
    expect(ids(await a.callTool('find_assets', { query: 'web' }))).toContain(pseudonym);
    time.now = T0 + 80_000;
    const onB = await b.callTool('get_asset', { ref: pseudonym });
    expect(onB.isError, JSON.stringify(onB.content)).toBe(false);
    // Unused on both for the TTL.
    time.now = T0 + 80_000 + TTL * 1000 + 1;
    expect((await b.callTool('get_asset', { ref: pseudonym })).isError).toBe(true);
    expect((await a.callTool('get_asset', { ref: pseudonym })).isError).toBe(true);
    // Seen again: the same pseudonym.
    expect(ids(await a.callTool('find_assets', { query: 'web' }))).toContain(pseudonym);
  });
});
