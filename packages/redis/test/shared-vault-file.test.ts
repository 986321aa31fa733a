/**
 * Replicas whose policies give a vault file (`vault.path`) sharing one real redis-server: the
 * file's mappings are claimed in Redis when the policy's shared vault is first settled, so a
 * pseudonym a single node saved reveals on a replica without the file; two replicas whose files
 * disagree end with one pseudonym per value on both (the first to start wins); and a value the
 * file mapped is never filed under a second pseudonym.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import type { Layer } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { TokenVault } from '@cloudg/privacy';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

const KEY = 'vault-file-replica-key';
const VAULT_ENV = { CLOUDG_MCP_VAULT_KEY: KEY };
let redis: TestRedis;
let dir: string;
const states: RedisSharedState[] = [];

async function connect(keyPrefix: string): Promise<RedisSharedState> {
  const state = await createRedisSharedState(redis.url, { keyPrefix });
  states.push(state);
  return state;
}

/** A strict catalog layer over the sample estate; with `state`, a replica sharing its vault. */
async function layer(path: string | undefined, state?: RedisSharedState) {
  const policy = Policy.load(
    { extends: 'strict', ...(path ? { vault: { path } } : {}) },
    {
      vaultEnv: VAULT_ENV,
      logger: pino({ level: 'silent' }),
      ...(state
        ? { vaultStore: state.vaultStore, rateStore: state.rateStore, clock: () => Date.now() / 1000 }
        : {}),
    },
  );
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
  await workspace.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  const served: Layer<Workspace> = createCatalogLayer({
    workspace,
    policy,
    logger: pino({ level: 'silent' }),
  });
  return { policy, layer: served };
}

function ids(result: { structured?: unknown }): string[] {
  return ((result.structured as { items?: { id: string }[] }).items ?? []).map((a) => a.id);
}

/** Two numbers whose first candidates are the same under KEY: the second issued moves on. */
function collidingNumbers(): [string, string] {
  const v = new TokenVault({ key: KEY });
  for (let n = 10; n < 100; n++) {
    const before = v.stats().counters.collisions;
    v.pseudonymize(String(n), 'number');
    if (v.stats().counters.collisions > before)
      return [
        v.detokenize(new TokenVault({ key: KEY }).pseudonymize(String(n), 'number')) as string,
        String(n),
      ];
  }
  throw new Error('no two 2-digit numbers collide under this key');
}

/** A vault file a single node saved after pseudonymising `values` in this order. */
function fileOf(name: string, values: readonly string[]): string {
  const path = join(dir, name);
  const single = new TokenVault({ key: KEY, path });
  for (const value of values) single.pseudonymize(value, 'number');
  single.save();
  return path;
}

/** A replica's vault, its file loaded, shared through `state`; its file's mappings claimed. */
async function replicaVault(state: RedisSharedState, path?: string) {
  const vault = new TokenVault({ key: KEY, ...(path ? { path } : {}) });
  vault.shareWith(state.vaultStore);
  const held = await vault.shareHeld(state.vaultStore);
  return { vault, held };
}

/** A pass as a policy's pipeline runs it: syncs and passes again while a sync changes something. */
async function pass(vault: TokenVault, state: RedisSharedState, values: readonly string[]) {
  let out = values.map((value) => vault.pseudonymize(value, 'number'));
  for (let round = 0; round < 4 && (await vault.syncShared(state.vaultStore)); round++)
    out = values.map((value) => vault.pseudonymize(value, 'number'));
  return out;
}

beforeAll(async () => {
  redis = await TestRedis.start();
  dir = mkdtempSync(join(tmpdir(), 'cloudg-vault-file-'));
});
afterAll(async () => {
  for (const s of states) await s.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a vault file with replicas sharing Redis', () => {
  it('a pseudonym a single node saved in its file reveals on a replica that never had the file', async () => {
    // One node, no Redis: a strict page of assets, the vault saved to its file.
    const path = join(dir, 'single-node.json');
    const single = await layer(path);
    const saved = ids(await single.layer.callTool('find_assets', { query: 'web' }));
    expect(saved.length).toBeGreaterThan(0);
    expect(single.policy.saveVault()).toBe(path);
    // The team moves to replicas: A starts with the file, B without.
    const a = await layer(path, await connect('file-reveal:'));
    const held = await a.policy.shareVaultFile();
    expect(held).toMatchObject({ replaced: 0, dropped: 0 });
    expect(held?.kept).toBe(held?.held);
    const b = await layer(undefined, await connect('file-reveal:'));
    const onB = await b.layer.callTool('get_asset', { ref: saved[0] });
    expect(onB.isError, JSON.stringify(onB.content)).toBe(false);
    expect(JSON.stringify(onB.structured)).toContain(saved[0] as string);
    // And B issues the file's pseudonyms for the same assets.
    expect(ids(await b.layer.callTool('find_assets', { query: 'web' }))).toEqual(saved);
  });

  it("an embedder's policy claims the file before its first pass, without being asked", async () => {
    const path = join(dir, 'single-node-embedded.json');
    const single = await layer(path);
    const saved = ids(await single.layer.callTool('find_assets', { query: 'db' }));
    expect(saved.length).toBeGreaterThan(0);
    single.policy.saveVault();
    const a = await layer(path, await connect('file-embedded:'));
    const b = await layer(undefined, await connect('file-embedded:'));
    // Nothing claimed yet: B cannot reveal the file's pseudonym.
    expect((await b.layer.callTool('get_asset', { ref: saved[0] })).isError).toBe(true);
    // Any call through A's policy (here one about other assets) first claims A's file.
    await a.layer.callTool('find_assets', { query: 'web' });
    const onB = await b.layer.callTool('get_asset', { ref: saved[0] });
    expect(onB.isError, JSON.stringify(onB.content)).toBe(false);
  });

  it('two replicas whose files disagree end with one pseudonym per value on both', async () => {
    const [u, v] = collidingNumbers();
    // A's node issued u first (v moved to its next candidate), B's node v first.
    const first = await connect('file-clash:');
    const second = await connect('file-clash:');
    const a = await replicaVault(first, fileOf('clash-a.json', [u, v]));
    const b = await replicaVault(second, fileOf('clash-b.json', [v, u]));
    expect(a.held).toEqual({ held: 2, kept: 2, replaced: 0, dropped: 0 });
    expect(b.held).toEqual({ held: 2, kept: 0, replaced: 2, dropped: 0 });
    const onA = await pass(a.vault, first, [u, v]);
    expect(await pass(b.vault, second, [u, v])).toEqual(onA);
    expect(await first.client.hlen('file-clash:vault:holders')).toBe(2);
    // Restarted, B's file (saved after the sync) now agrees.
    b.vault.save();
    const again = await replicaVault(second, b.vault.path as string);
    expect(again.held).toEqual({ held: 2, kept: 2, replaced: 0, dropped: 0 });
  });

  it('a value the file mapped is never filed under a second pseudonym', async () => {
    const [u, v] = collidingNumbers();
    const state = await connect('file-second:');
    // A replica without a file filed v under its first candidate, the one u holds in the file.
    const early = await replicaVault(state);
    const [onEarly] = await pass(early.vault, state, [v]);
    // B's file holds u under that candidate and v under its next: v keeps the first pseudonym.
    const b = await replicaVault(state, fileOf('second.json', [u, v]));
    expect(b.held).toMatchObject({ replaced: 2, dropped: 0 });
    expect(await pass(b.vault, state, [v, u])).toEqual([onEarly, expect.any(String)]);
    // A replica starting later without the file gets the same, and Redis holds one entry per value.
    const late = await replicaVault(state);
    expect(await pass(late.vault, state, [v, u])).toEqual(await pass(b.vault, state, [v, u]));
    expect(await state.client.hlen('file-second:vault:holders')).toBe(2);
  });
});
