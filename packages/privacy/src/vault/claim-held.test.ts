/**
 * A vault file's mappings claimed in a shared store (TokenVault.shareHeld): they reveal on a
 * vault without the file; where two files disagree the store's mappings win on both, each value
 * keeping one pseudonym; what a pass would no longer issue as held is dropped and derived again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryShared } from '../../test/memory-shared-store.js';
import { createVaultSealer } from './sealer.js';
import { sealBatch } from './shared-store.js';
import { TokenVault } from './token-vault.js';

const key = 'held-key-0123456789abcdef';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A vault file written by a single node that pseudonymised `values` in this order. */
function fileOf(values: readonly (readonly [string, string])[], prepare?: (v: TokenVault) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'cloudg-held-'));
  dirs.push(dir);
  const path = join(dir, 'vault.json');
  const single = new TokenVault({ key, path });
  prepare?.(single);
  for (const [value, entity] of values) single.pseudonymize(value, entity);
  single.save();
  return path;
}

/** A replica's vault: its file loaded, then shared. */
function replica(path?: string): TokenVault {
  const v = new TokenVault({ key, ...(path ? { path } : {}) });
  v.shareWith();
  return v;
}

/** Pseudonymise as a policy's pipeline does: a pass, then syncs and passes again while they change it. */
async function pass(v: TokenVault, shared: MemoryShared, values: readonly (readonly [string, string])[]) {
  let out = values.map(([value, entity]) => v.pseudonymize(value, entity));
  for (let round = 0; round < 4 && (await v.syncShared(shared)); round++)
    out = values.map(([value, entity]) => v.pseudonymize(value, entity));
  return out;
}

/** Two numbers whose first candidates are the same: the second one issued moves to its next. */
function collidingNumbers(): [string, string] {
  const v = new TokenVault({ key });
  for (let n = 10; n < 100; n++) {
    const before = v.stats().counters.collisions;
    v.pseudonymize(String(n), 'number');
    if (v.stats().counters.collisions > before) {
      const first = new TokenVault({ key }).pseudonymize(String(n), 'number');
      return [v.detokenize(first) as string, String(n)];
    }
  }
  throw new Error('no two 2-digit numbers collide under this key');
}

/** The colliding numbers as a pass's values, u first. */
function collidingValues() {
  const [u, v] = collidingNumbers();
  const values = [
    [u, 'number'],
    [v, 'number'],
  ] as const;
  return { u, v, values };
}

describe('a vault file shared through the store', () => {
  const estate = [
    ['arn:aws:ec2:us-east-1:123456789012:instance/i-0abc', 'aws_arn'],
    ['web-1.prod.internal', 'hostname'],
    ['10.1.2.3', 'ip_address'],
    ['db.us-east-1.rds.amazonaws.com', 'hostname'],
  ] as const;

  it("files the file's mappings, which then reveal on a vault without the file", async () => {
    const shared = new MemoryShared();
    const path = fileOf(estate);
    const a = replica(path);
    const mine = estate.map(([value, entity]) => a.lookup(value, entity) as string);
    const held = await a.shareHeld(shared);
    // The ARN's account and resource and the hostnames' labels are mappings of their own.
    expect(held.held).toBe(a.stats().entries);
    expect(held).toMatchObject({ kept: held.held, replaced: 0, dropped: 0 });
    const b = replica();
    for (const p of mine) expect(b.detokenize(p)).toBeUndefined();
    await b.syncShared(shared);
    expect(mine.map((p) => b.detokenize(p))).toEqual(estate.map(([value]) => value));
    // And b, issuing the same values, issues the same pseudonyms without filing anything new.
    const holders = shared.holders.size;
    expect(await pass(replica(), shared, estate)).toEqual(mine);
    expect(shared.holders.size).toBe(holders);
  });

  it('two files that disagree end with one pseudonym per value on both: the first filed wins', async () => {
    const { values } = collidingValues();
    const shared = new MemoryShared();
    // A's node issued u first (v moved to its next candidate); B's node issued v first.
    const a = replica(fileOf(values));
    const b = replica(fileOf([values[1], values[0]]));
    const onA = values.map(([value, entity]) => a.lookup(value, entity));
    expect(values.map(([value, entity]) => b.lookup(value, entity))).not.toEqual(onA);
    expect(await a.shareHeld(shared)).toEqual({ held: 2, kept: 2, replaced: 0, dropped: 0 });
    expect(await b.shareHeld(shared)).toEqual({ held: 2, kept: 0, replaced: 2, dropped: 0 });
    expect(b.dirty).toBe(true);
    expect(await pass(b, shared, values)).toEqual(onA);
    expect(await pass(a, shared, values)).toEqual(onA);
    // Each value filed once, under A's pseudonym.
    expect(shared.holders.size).toBe(2);
  });

  it('a value the file holds under a later candidate gets that pseudonym on a vault without the file', async () => {
    const { u, v, values } = collidingValues();
    const shared = new MemoryShared();
    const a = replica(fileOf(values));
    const later = a.lookup(v, 'number') as string;
    await a.shareHeld(shared);
    // C derives v afresh: its first candidate is u's, so it goes on to the one the file holds.
    const c = replica();
    expect(await pass(c, shared, [[v, 'number']])).toEqual([later]);
    expect(c.detokenize(a.lookup(u, 'number') as string)).toBe(u);
    expect(shared.holders.size).toBe(2);
  });

  it('drops what a pass would not issue as held (a planted mapping, an ARN built on it); a pass derives them again', async () => {
    const account = '123456789012';
    const arn = `arn:aws:iam::${account}:role/deploy`;
    const planted = new TokenVault({ key }).pseudonymize('999999999999', 'aws_account_id');
    const path = fileOf([[arn, 'aws_arn']], (single) => {
      // The node held the account under another value's pseudonym (an import from elsewhere).
      single.importMappings({
        format: 'cloudg-vault/1',
        key_id: single.keyId,
        entries: [['global', 'aws_account_id', account, planted, 1, 1]],
      });
    });
    const shared = new MemoryShared();
    const b = replica(path);
    expect(b.lookup(arn, 'aws_arn')).toContain(planted);
    const held = await b.shareHeld(shared);
    expect(held).toMatchObject({ replaced: 0, dropped: 2 });
    expect(b.lookup(account, 'aws_account_id')).toBeUndefined();
    expect(shared.holders.size).toBe(held.kept);
    const fresh = await pass(replica(), shared, [[arn, 'aws_arn']]);
    expect(await pass(b, shared, [[arn, 'aws_arn']])).toEqual(fresh);
    expect(fresh[0]).not.toContain(planted);
  });

  it('waits for the parts of a built pseudonym: an ARN on an account another value holds in the store is derived again', async () => {
    const account = '123456789012';
    const arn = `arn:aws:iam::${account}:role/deploy`;
    const path = fileOf([[arn, 'aws_arn']]);
    const b = replica(path);
    const stale = b.lookup(arn, 'aws_arn') as string;
    const accountPseudonym = b.lookup(account, 'aws_account_id') as string;
    // Another process filed that account pseudonym first, for another account.
    const shared = new MemoryShared();
    const sealed = sealBatch(createVaultSealer({ key }), [
      {
        namespace: 'global',
        entity: 'aws_account_id',
        real: '999999999999',
        pseudonym: accountPseudonym,
        created: 1,
        lastUsed: 1,
      },
    ]);
    await shared.claim(sealed.batch, sealed.mappings);
    // The account is replaced in the first round, so the ARN built on it is not claimed as held.
    expect(await b.shareHeld(shared)).toMatchObject({ replaced: 1, dropped: 1 });
    // The stale ARN was not filed: another vault cannot reveal it.
    const c = replica();
    c.detokenize(stale);
    await c.syncShared(shared);
    expect(c.detokenize(stale)).toBeUndefined();
    const [again] = await pass(b, shared, [[arn, 'aws_arn']]);
    expect(again).not.toBe(stale);
    expect(again).not.toContain(accountPseudonym);
    // Every replica agrees on it.
    expect(await pass(replica(), shared, [[arn, 'aws_arn']])).toEqual([again]);
  });

  it('claims nothing a pass issued and has not settled, and nothing for a vault without a file', async () => {
    const shared = new MemoryShared();
    const a = replica();
    a.pseudonymize('10.9.9.9', 'ip_address');
    expect(await a.shareHeld(shared)).toEqual({ held: 0, kept: 0, replaced: 0, dropped: 0 });
    expect(shared.claims).toBe(0);
  });
});
