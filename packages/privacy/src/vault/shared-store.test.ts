/** Two vaults (two processes) settling through one shared store: reveal across, one holder per pseudonym, one pseudonym per value. */
import { describe, expect, it } from 'vitest';
import { MemoryShared } from '../../test/memory-shared-store.js';
import { createVaultSealer } from './sealer.js';
import { BatchReader, pseudonymKey, type SharedVaultStore, sealBatch } from './shared-store.js';
import { TokenVault } from './token-vault.js';
import type { VaultEntry } from './types.js';

const key = 'k'.repeat(32);

const ARN = 'arn:aws:iam::123456789012:role/admin';

/** A files an account and an ARN on it; B holds A's account pseudonym for another account (from its own file). */
async function accountHeldForAnother() {
  const shared = new MemoryShared();
  const a = new TokenVault({ key });
  a.shareWith();
  const account = a.pseudonymize('123456789012', 'aws_account_id');
  const onA = a.pseudonymize(ARN, 'aws_arn');
  await a.syncShared(shared);
  const b = new TokenVault({ key });
  b.importMappings({
    format: 'cloudg-vault/1',
    key_id: b.keyId,
    entries: [['global', 'aws_account_id', '999999999999', account, 1, 1]],
  });
  b.shareWith();
  return { shared, onA, b };
}

describe('a vault shared between processes', () => {
  it('reveals on one vault a pseudonym issued by another, after one sync each', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    const b = new TokenVault({ key });
    a.shareWith();
    b.shareWith();
    const p = a.pseudonymize('10.1.2.3', 'ip');
    await a.syncShared(shared);
    expect(b.detokenize(p)).toBeUndefined();
    expect(await b.syncShared(shared)).toBe(true);
    expect(b.detokenize(p)).toBe('10.1.2.3');
  });

  it('gives way to the value another process filed first under the same pseudonym, and moves past it', async () => {
    const shared = new MemoryShared();
    // Another process issued the pseudonym db1 gets here to another value (a collision): plant it.
    const p = new TokenVault({ key }).pseudonymize('db1', 'hostname');
    const theirs: VaultEntry = {
      namespace: 'global',
      entity: 'hostname',
      real: 'db9',
      pseudonym: p,
      created: 1,
      lastUsed: 1,
    };
    const sealed = sealBatch(createVaultSealer({ key }), [theirs]);
    await shared.claim(sealed.batch, sealed.mappings);
    const a = new TokenVault({ key });
    a.shareWith();
    expect(a.pseudonymize('db1', 'hostname')).toBe(p);
    expect(await a.syncShared(shared)).toBe(true);
    expect(a.detokenize(p)).toBe('db9');
    const moved = a.pseudonymize('db1', 'hostname');
    expect(moved).not.toBe(p);
    expect(await a.syncShared(shared)).toBe(false);
    expect(a.stats().counters.collisions).toBeGreaterThan(0);
  });

  it('takes the pseudonym another process filed the value under, when this one holds it for another value', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('web-1', 'hostname');
    await a.syncShared(shared);
    // B holds p for another value (loaded from its own file, never shared), so it passes p over.
    const b = new TokenVault({ key });
    b.importMappings({
      format: 'cloudg-vault/1',
      key_id: b.keyId,
      entries: [['global', 'hostname', 'web-9', p, 1, 1]],
    });
    b.shareWith();
    expect(b.pseudonymize('web-1', 'hostname')).not.toBe(p);
    expect(await b.syncShared(shared)).toBe(true);
    expect(b.pseudonymize('web-1', 'hostname')).toBe(p);
    expect(b.detokenize(p)).toBe('web-1');
    // The store files web-1 once: B's own candidate was not kept.
    expect(shared.holders.size).toBe(1);
  });

  it('files a value that two entities give the same pseudonym once, and settles without another pass', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('10.1.2.3', 'ip_address');
    expect(a.pseudonymize('10.1.2.3', 'private_ip')).toBe(p);
    expect(await a.syncShared(shared)).toBe(false);
    expect(a.pseudonymize('10.1.2.3', 'private_ip')).toBe(p);
    expect(shared.holders.size).toBe(1);
  });

  it('builds an ARN again on the account pseudonym another process filed, so every process shows the same ARN', async () => {
    // B holds A's account pseudonym for another account, so it builds the ARN on another one first.
    const { shared, onA, b } = await accountHeldForAnother();
    expect(b.pseudonymize(ARN, 'aws_arn')).not.toBe(onA);
    expect(await b.syncShared(shared)).toBe(true);
    expect(b.pseudonymize(ARN, 'aws_arn')).toBe(onA);
    expect(await b.syncShared(shared)).toBe(false);
    expect(b.detokenize(onA)).toBe(ARN);
  });

  it('unfiles an ARN it built on an account pseudonym that lost, so the ARN is filed under one pseudonym only', async () => {
    const { shared, onA, b } = await accountHeldForAnother();
    const first = b.pseudonymize(ARN, 'aws_arn');
    const sealer = createVaultSealer({ key });
    expect(await b.syncShared(shared)).toBe(true);
    // Built on the account pseudonym that lost: no longer filed, so it reveals nowhere.
    expect(shared.holders.has(pseudonymKey(sealer, 'global', first))).toBe(false);
    const c = new TokenVault({ key });
    c.shareWith();
    expect(c.detokenize(first)).toBeUndefined();
    await c.syncShared(shared);
    expect(c.detokenize(first)).toBeUndefined();
    expect(b.pseudonymize(ARN, 'aws_arn')).toBe(onA);
    await b.syncShared(shared);
    expect(shared.holders.has(pseudonymKey(sealer, 'global', onA))).toBe(true);
  });

  it('hands the store no real value or pseudonym in clear, and only the same key opens what it holds', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('prod-db.internal.example.com', 'hostname');
    await a.syncShared(shared);
    const held = JSON.stringify([...shared.holders, ...shared.batches]);
    expect(held).not.toContain('prod-db');
    expect(held).not.toContain(p);
    const ref = [...shared.holders.values()][0]?.ref as string;
    const batches = Object.fromEntries(shared.batches);
    expect(new BatchReader(createVaultSealer({ key })).entry(ref, batches)).toMatchObject({
      real: 'prod-db.internal.example.com',
      pseudonym: p,
    });
    expect(() => new BatchReader(createVaultSealer({ key: 'other' })).entry(ref, batches)).toThrow();
  });

  it('withdraws what it issued when the store fails, so nothing unshared is kept', async () => {
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('db2', 'hostname');
    const down: SharedVaultStore = {
      claim: () => Promise.reject(new Error('down')),
      reveal: async () => ({ answers: [], batches: {} }),
      reseal: async () => undefined,
    };
    await expect(a.syncShared(down)).rejects.toThrow('down');
    expect(a.detokenize(p)).toBeUndefined();
  });

  it('given the store, claims full parts while the pass goes on, and the sync settles them all', async () => {
    const shared = new MemoryShared();
    const sizes: number[] = [];
    const counting: SharedVaultStore = {
      claim: (batch, mappings) => {
        sizes.push(mappings.length);
        return shared.claim(batch, mappings);
      },
      reveal: (keys) => shared.reveal(keys),
      reseal: (batch) => shared.reseal(batch),
    };
    const a = new TokenVault({ key });
    a.shareWith(counting);
    const hosts = Array.from({ length: 1201 }, (_, i) => a.pseudonymize(`host-${i}.example.com`, 'hostname'));
    // Two parts of 500 left before any sync; the rest goes with it.
    expect(sizes).toEqual([500, 500]);
    expect(await a.syncShared(counting)).toBe(false);
    expect(sizes).toEqual([500, 500, 201]);
    const b = new TokenVault({ key });
    b.shareWith();
    for (const p of hosts) b.detokenize(p);
    expect(await b.syncShared(shared)).toBe(true);
    expect(b.detokenize(hosts[1200] as string)).toBe('host-1200.example.com');
    expect(b.detokenize(hosts[0] as string)).toBe('host-0.example.com');
  });

  it('withdraws the parts claimed during a pass too when one of them failed', async () => {
    let calls = 0;
    const flaky: SharedVaultStore = {
      claim: () =>
        ++calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve({ answers: [], batches: {} }),
      reveal: async () => ({ answers: [], batches: {} }),
      reseal: async () => undefined,
    };
    const a = new TokenVault({ key });
    a.shareWith(flaky);
    const hosts = Array.from({ length: 700 }, (_, i) => a.pseudonymize(`db-${i}.example.com`, 'hostname'));
    await expect(a.syncShared(flaky)).rejects.toThrow('down');
    expect(a.detokenize(hosts[0] as string)).toBeUndefined();
    expect(a.detokenize(hosts[699] as string)).toBeUndefined();
  });

  it('drops the parts claimed during a pass that failed', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith(shared);
    const hosts = Array.from({ length: 600 }, (_, i) => a.pseudonymize(`app-${i}.example.com`, 'hostname'));
    a.discardUnclaimed();
    // Nothing left to settle, and nothing of the pass kept locally.
    expect(await a.syncShared(shared)).toBe(false);
    expect(a.detokenize(hosts[0] as string)).toBeUndefined();
  });
});
