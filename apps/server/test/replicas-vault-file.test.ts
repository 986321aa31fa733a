/**
 * `vault.path` with `--redis-url`, as the server composes a replica: the mappings of the vault
 * file are claimed in Redis before the layer is handed back (before anything is served), so a
 * replica without the file reveals them; a replica whose file disagrees with what Redis holds
 * takes Redis's mappings and says so in a warning with counts, never values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSharedState, createLayerFromOptions, type ServerLayer } from '../src/index.js';
import { startRedis } from './support/redis-server.js';

const KEY = 'vault-file-server-key-0123456789';
let redis: Awaited<ReturnType<typeof startRedis>>;
let dir: string;
const servers: ServerLayer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'cloudg-replica-vault-'));
});
afterAll(async () => {
  for (const s of servers) await s.closeShared();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The vault of a single node (no Redis) under KEY, with a file at `path`. */
function singleNode(path?: string) {
  return Policy.load({ extends: 'open', vault: { key: KEY, ...(path ? { path } : {}) } });
}

/** The sharing side of a replica's vault (a TokenVault), which this test drives by hand. */
interface SharingVault {
  syncShared(store: unknown): Promise<boolean>;
  readonly dirty: boolean;
}

/** Two numbers whose first candidates are the same under KEY: the second issued moves on. */
function collidingNumbers(): [string, string] {
  const v = singleNode().vault;
  const collisions = () => v.stats?.().counters.collisions ?? 0;
  for (let n = 10; n < 100; n++) {
    const before = collisions();
    v.pseudonymize(String(n), 'number');
    if (collisions() > before)
      return [v.detokenize(singleNode().vault.pseudonymize(String(n), 'number')) as string, String(n)];
  }
  throw new Error('no two 2-digit numbers collide under this key');
}

/** The vault file of a single node that pseudonymised `values` in this order. */
function fileOf(name: string, values: readonly string[]): string {
  const path = join(dir, name);
  const single = singleNode(path);
  for (const value of values) single.vault.pseudonymize(value, 'number');
  single.saveVault();
  return path;
}

/** A replica as `serve --redis-url` builds it, with its log lines collected. */
async function replica(path?: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'info',
    format: 'json',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    }),
  });
  const server = await createLayerFromOptions({
    policy: { extends: 'open', vault: { key: KEY, ...(path ? { path } : {}) } },
    sharedState: await connectSharedState(redis.url, { keyPrefix: 'vault-file:' }),
    logger,
  });
  servers.push(server);
  const vault = server.policy.vault;
  return { server, lines, vault, sharing: vault as typeof vault & SharingVault };
}

describe('a vault file on replicas sharing Redis', () => {
  it("claims the file's mappings at start: another replica reveals them, and a disagreeing file is told in counts", async () => {
    const [u, v] = collidingNumbers();
    const a = await replica(fileOf('a.json', [u, v]));
    const onA = [a.vault.lookup(u, 'number'), a.vault.lookup(v, 'number')] as string[];
    expect(a.lines.find((l) => l.level === 40)).toBeUndefined();
    expect(a.lines.find((l) => String(l.msg).includes('vault file'))).toMatchObject({ held: 2 });
    // A replica without the file reveals A's pseudonyms through Redis.
    const b = await replica();
    for (const p of onA) b.vault.detokenize(p);
    await b.sharing.syncShared(b.server.sharedState?.vaultStore);
    expect(onA.map((p) => b.vault.detokenize(p))).toEqual([u, v]);
    // C's node issued them the other way round: C takes A's, and warns with counts only.
    const c = await replica(fileOf('c.json', [v, u]));
    expect([c.vault.lookup(u, 'number')]).toEqual([onA[0]]);
    const warning = c.lines.find((l) => l.level === 40);
    expect(warning).toMatchObject({ held: 2, kept: 0, replaced: 2, dropped: 0 });
    const text = JSON.stringify(warning);
    for (const secret of [u, v, ...onA]) expect(text).not.toContain(`"${secret}"`);
    expect(c.sharing.dirty).toBe(true);
  });
});
