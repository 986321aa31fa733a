/**
 * Three catalog replicas under the strict profile sharing one real redis-server: a pseudonym one
 * replica hands out reveals on the others, and every replica hands out the same pseudonyms; the
 * store's claim and reveal scripts on their own.
 */
import { join } from 'node:path';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import type { Layer } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { TokenVault } from '@cloudg/privacy';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

const VAULT_ENV = { CLOUDG_MCP_VAULT_KEY: 'replica-test-key' };
let redis: TestRedis;
const states: RedisSharedState[] = [];

async function replica(): Promise<Layer<Workspace>> {
  const state = await createRedisSharedState(redis.url, { keyPrefix: 'vault-test:' });
  states.push(state);
  const policy = Policy.fromProfile('strict', {
    vaultEnv: VAULT_ENV,
    vaultStore: state.vaultStore,
    rateStore: state.rateStore,
    clock: () => Date.now() / 1000,
    logger: pino({ level: 'silent' }),
  });
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
  await workspace.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  return createCatalogLayer({ workspace, policy, logger: pino({ level: 'silent' }) });
}

interface Found {
  id: string;
}
function ids(result: { structured?: unknown }): string[] {
  return ((result.structured as { items?: Found[] }).items ?? []).map((a) => a.id);
}

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const s of states) await s.close();
  await redis?.stop();
});

describe('a pseudonym vault shared by three replicas', () => {
  it('a pseudonym issued on A reveals on B and C, and all three issue the same ones', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const onA = await a.callTool('find_assets', { query: 'web' });
    expect(onA.isError).toBe(false);
    const pseudonyms = ids(onA);
    expect(pseudonyms.length).toBeGreaterThan(0);
    expect(pseudonyms.every((id) => /^res-[0-9a-f]{10}$/.test(id))).toBe(true);
    // B has never seen these values: its vault learns the mapping from Redis.
    const onB = await b.callTool('get_asset', { ref: pseudonyms[0] });
    expect(onB.isError, JSON.stringify(onB.content)).toBe(false);
    expect(JSON.stringify(onB.structured)).toContain(pseudonyms[0] as string);
    const onC = await c.callTool('find_assets', { query: 'web' });
    expect(ids(onC)).toEqual(pseudonyms);
  });

  it('keeps no real value in clear in Redis: keyed digests and sealed mappings only', async () => {
    const [a] = [await replica()];
    const page = await a.callTool('find_assets', { query: '', limit: 50 });
    expect(ids(page).length).toBeGreaterThan(10);
    const client = (states.at(-1) as RedisSharedState).client;
    const holders = await client.hgetall('vault-test:vault:holders');
    expect(Object.keys(holders).length).toBeGreaterThan(10);
    const batches = await client.keys('vault-test:vault:batch:*');
    expect(batches.length).toBeGreaterThan(0);
    const sealed = await Promise.all(batches.map((k) => client.get(k)));
    const dump = JSON.stringify([holders, batches, sealed]);
    for (const real of ['111111111111', 'arn:aws', 'sample-org', 'web-1'])
      expect(dump, real).not.toContain(real);
    // Nor the pseudonyms: a pseudonym names its entity's shape, and the digests stand for it.
    for (const pseudonym of ids(page)) expect(dump).not.toContain(pseudonym);
  });

  it('resolves a collision once: the first claim of a pseudonym wins, later claimants adopt it', async () => {
    const [one, two] = [
      await createRedisSharedState(redis.url, { keyPrefix: 'clash:' }),
      await createRedisSharedState(redis.url, { keyPrefix: 'clash:' }),
    ];
    states.push(one, two);
    // The store sees keyed digests, references and sealed batches only: opaque strings stand in.
    const claim = (store: RedisSharedState, real: string) =>
      store.vaultStore.claim({ id: `b${real}`, sealed: `sealed-batch-${real}` }, [
        { valueKey: `v-${real}`, pseudonymKey: 'p-host-1' },
      ]);
    // Two replicas derived the same pseudonym for different values at the same moment.
    const [first, second] = await Promise.all([claim(one, 'db-a'), claim(two, 'db-b')]);
    const answers = [first.answers[0], second.answers[0]];
    expect(answers.filter((a) => a?.status === 'ok')).toHaveLength(1);
    const lost = [first, second].find((a) => a.answers[0]?.status !== 'ok') as typeof first;
    expect(lost.answers[0]?.status).toBe('pseudonym');
    // The loser is handed the winner's batch with the winner's reference.
    const holder = (lost.answers[0] as { holder: string }).holder;
    expect(lost.batches[holder.split(':')[0] as string]).toMatch(/^sealed-batch-db-[ab]$/);
    // Asking again gives the same winner: nothing was overwritten.
    const again = await claim(one, 'db-a');
    const twice = await claim(one, 'db-b');
    expect([again, twice].filter((a) => a.answers[0]?.status === 'ok')).toHaveLength(1);
    const revealed = await two.vaultStore.reveal(['p-host-1', 'p-unknown']);
    expect(revealed.answers[0]?.ref).toMatch(/^bdb-[ab]:0$/);
    // With the value key filed beside it, for the vault to check the row against.
    expect(revealed.answers[0]?.valueKey).toMatch(/^v-db-[ab]$/);
    expect(revealed.answers[1]).toBeUndefined();
    expect(Object.values(revealed.batches)).toHaveLength(1);
  });

  it('answers a value filed under a candidate the claimant passed over with that mapping, and files nothing new', async () => {
    const state = await createRedisSharedState(redis.url, { keyPrefix: 'passed:' });
    states.push(state);
    const store = state.vaultStore;
    // One process filed web-1 under its first candidate; another holds that candidate for another
    // value, so it claims web-1 under the next one and names the first as passed over.
    await store.claim({ id: 'b1', sealed: 'sealed-b1' }, [{ pseudonymKey: 'p0', valueKey: 'v-web-1' }]);
    const answer = await store.claim({ id: 'b2', sealed: 'sealed-b2' }, [
      { pseudonymKey: 'p9', valueKey: 'v-db-1' },
      { pseudonymKey: 'p1', valueKey: 'v-web-1', passed: ['p0'] },
      { pseudonymKey: 'p0', valueKey: 'v-web-1' },
    ]);
    expect(answer.answers).toEqual([
      { status: 'ok' },
      { status: 'value', holder: 'b1:0', valueKey: 'v-web-1' },
      { status: 'ok' },
    ]);
    expect(answer.batches).toEqual({ b1: 'sealed-b1' });
    const revealed = await store.reveal(['p1', 'p9', 'p0']);
    expect(revealed.answers).toEqual([
      undefined,
      { ref: 'b2:0', valueKey: 'v-db-1' },
      { ref: 'b1:0', valueKey: 'v-web-1' },
    ]);
    expect(revealed.batches).toEqual({ b1: 'sealed-b1', b2: 'sealed-b2' });
    expect(await state.client.hlen('passed:vault:holders')).toBe(2);
  });

  it('two vaults claiming the same values at once end with the same pseudonyms, each filed once', async () => {
    // Ten claims of 500 in flight at once queue behind each other in Redis; on a loaded machine
    // the last can wait past the default one-second command timeout. The race is what is tested.
    const [one, two] = [
      await createRedisSharedState(redis.url, { keyPrefix: 'race:', commandTimeoutMs: 5000 }),
      await createRedisSharedState(redis.url, { keyPrefix: 'race:', commandTimeoutMs: 5000 }),
    ];
    states.push(one, two);
    const vaults = [new TokenVault({ key: 'race-key' }), new TokenVault({ key: 'race-key' })];
    const stores = [one.vaultStore, two.vaultStore];
    vaults.forEach((v, i) => {
      v.shareWith(stores[i]);
    });
    const values = Array.from({ length: 1200 }, (_, i) => [
      `arn:aws:ec2:us-east-1:1234567890${String(i % 7).padStart(2, '0')}:instance/i-${i.toString(16).padStart(8, '0')}`,
      `web-${i}.example.com`,
    ]).flat();
    // B holds A's first pseudonym for another value (from its own file), so it passes it over.
    const first = new TokenVault({ key: 'race-key' }).pseudonymize(values[1] as string, 'hostname');
    (vaults[1] as TokenVault).importMappings({
      format: 'cloudg-vault/1',
      key_id: (vaults[1] as TokenVault).keyId,
      entries: [['global', 'hostname', 'elsewhere.example.com', first, 1, 1]],
    });
    const pass = (v: TokenVault) =>
      values.map((value) => v.pseudonymize(value, value.startsWith('arn:') ? 'aws_arn' : 'hostname'));
    // A's pass runs first, so its parts reach Redis first; B's claims of the same values (one of
    // them under a candidate after the one it passed over) meet them while A's sync is still
    // waiting. Each reruns its pass while its sync changed something.
    const settle = async (i: number) => {
      const v = vaults[i] as TokenVault;
      let out = pass(v);
      for (
        let round = 0;
        round < 4 && (await v.syncShared(stores[i] as RedisSharedState['vaultStore']));
        round++
      )
        out = pass(v);
      return out;
    };
    const [onA, onB] = await Promise.all([settle(0), settle(1)]);
    expect(onB).toEqual(onA);
    // Every value filed once (its ARN's account and resource too), and each reveals on a third.
    const holders = await one.client.hlen('race:vault:holders');
    const c = new TokenVault({ key: 'race-key' });
    c.shareWith();
    for (const p of onA) c.detokenize(p);
    await c.syncShared(one.vaultStore);
    expect(onA.map((p) => c.detokenize(p))).toEqual(values);
    expect(holders).toBe((vaults[0] as TokenVault).stats().entries);
  });

  it('unfiles an ARN built on an account pseudonym that lost its claim: the ARN reveals under the winner only', async () => {
    const state = await createRedisSharedState(redis.url, { keyPrefix: 'built-lost:' });
    states.push(state);
    const store = state.vaultStore;
    const arn = 'arn:aws:iam::123456789012:role/admin';
    const a = new TokenVault({ key: 'lost-key' });
    a.shareWith(store);
    const account = a.pseudonymize('123456789012', 'aws_account_id');
    const onA = a.pseudonymize(arn, 'aws_arn');
    await a.syncShared(store);
    // B holds A's account pseudonym for another account: it builds the ARN on another one first.
    const b = new TokenVault({ key: 'lost-key' });
    b.importMappings({
      format: 'cloudg-vault/1',
      key_id: b.keyId,
      entries: [['global', 'aws_account_id', '999999999999', account, 1, 1]],
    });
    b.shareWith(store);
    const first = b.pseudonymize(arn, 'aws_arn');
    expect(first).not.toBe(onA);
    const before = await state.client.hlen('built-lost:vault:holders');
    expect(await b.syncShared(store)).toBe(true);
    expect(b.pseudonymize(arn, 'aws_arn')).toBe(onA);
    await b.syncShared(store);
    // B's losing account mapping was never filed; the ARN built on it is unfiled again.
    expect(await state.client.hlen('built-lost:vault:holders')).toBe(before);
    const c = new TokenVault({ key: 'lost-key' });
    c.shareWith(store);
    for (const p of [first, onA]) c.detokenize(p);
    await c.syncShared(store);
    expect(c.detokenize(first)).toBeUndefined();
    expect(c.detokenize(onA)).toBe(arn);
  });

  it('refuses keys the scripts could not split apart, before sending anything', async () => {
    const state = states[0] as RedisSharedState;
    await expect(
      state.vaultStore.claim({ id: 'b3', sealed: 's' }, [{ pseudonymKey: 'a,b', valueKey: 'v' }]),
    ).rejects.toThrow('separator');
    await expect(state.vaultStore.reveal([''])).rejects.toThrow('separator');
  });
});
