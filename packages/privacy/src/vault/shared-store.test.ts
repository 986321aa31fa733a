/** Two vaults (two processes) settling through one shared store: reveal across, one winner per value and per pseudonym. */
import { describe, expect, it } from 'vitest';
import { createVaultSealer } from './sealer.js';
import {
  BatchReader,
  type MappingRef,
  type SealedBatch,
  type SharedAnswer,
  type SharedClaim,
  type SharedVaultStore,
  sealBatch,
} from './shared-store.js';
import { TokenVault } from './token-vault.js';
import type { VaultEntry } from './types.js';

/** The arbiter's rules in memory, as a shared store applies them: it sees digests, references and sealed batches only. */
class MemoryShared implements SharedVaultStore {
  readonly byValue = new Map<string, string>();
  readonly byPseudonym = new Map<string, string>();
  readonly batches = new Map<string, string>();
  #with(refs: (string | undefined)[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const ref of refs) {
      const id = ref?.split(':')[0];
      if (id !== undefined && this.batches.has(id)) out[id] = this.batches.get(id) as string;
    }
    return out;
  }
  async claim(batch: SealedBatch, mappings: readonly MappingRef[]): Promise<SharedAnswer<SharedClaim>> {
    this.batches.set(batch.id, batch.sealed);
    const answers = mappings.map((m): SharedClaim => {
      const value = this.byValue.get(m.valueKey);
      if (value)
        return this.byPseudonym.get(m.pseudonymKey) === value
          ? { status: 'ok' }
          : { status: 'value', holder: value };
      const held = this.byPseudonym.get(m.pseudonymKey);
      if (held) return { status: 'pseudonym', holder: held };
      this.byValue.set(m.valueKey, m.ref);
      this.byPseudonym.set(m.pseudonymKey, m.ref);
      return { status: 'ok' };
    });
    return { answers, batches: this.#with(answers.map((a) => (a.status === 'ok' ? undefined : a.holder))) };
  }
  async reveal(keys: readonly string[]): Promise<SharedAnswer<string | undefined>> {
    const answers = keys.map((k) => this.byPseudonym.get(k));
    return { answers, batches: this.#with(answers) };
  }
}

const key = 'k'.repeat(32);

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

  it('replaces a mapping another process claimed first by the winner', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith();
    const theirs: VaultEntry = {
      namespace: 'global',
      entity: 'hostname',
      real: 'db1',
      pseudonym: 'host-zz',
      created: 1,
      lastUsed: 1,
    };
    const sealed = sealBatch(createVaultSealer({ key }), [theirs]);
    await shared.claim(sealed.batch, sealed.mappings);
    const mine = a.pseudonymize('db1', 'hostname');
    expect(mine).not.toBe('host-zz');
    expect(await a.syncShared(shared)).toBe(true);
    expect(a.pseudonymize('db1', 'hostname')).toBe('host-zz');
    expect(await a.syncShared(shared)).toBe(false);
  });

  it('hands the store no real value or pseudonym in clear, and only the same key opens what it holds', async () => {
    const shared = new MemoryShared();
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('prod-db.internal.example.com', 'hostname');
    await a.syncShared(shared);
    const held = JSON.stringify([...shared.byValue, ...shared.byPseudonym, ...shared.batches]);
    expect(held).not.toContain('prod-db');
    expect(held).not.toContain(p);
    const ref = [...shared.byPseudonym.values()][0] as string;
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
