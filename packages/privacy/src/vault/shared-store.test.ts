/** Two vaults (two processes) settling through one shared store: reveal across, one winner per value and per pseudonym. */
import { describe, expect, it } from 'vitest';
import { createVaultSealer } from './sealer.js';
import {
  openMapping,
  type SealedMapping,
  type SharedClaim,
  type SharedVaultStore,
  sealMapping,
} from './shared-store.js';
import { TokenVault } from './token-vault.js';
import type { VaultEntry } from './types.js';

/** The arbiter's rules in memory, as a shared store applies them: it sees digests and sealed records only. */
class MemoryShared implements SharedVaultStore {
  readonly byValue = new Map<string, string>();
  readonly byPseudonym = new Map<string, string>();
  async claim(mappings: readonly SealedMapping[]): Promise<SharedClaim[]> {
    return mappings.map((m) => {
      const value = this.byValue.get(m.valueKey);
      if (value)
        return this.byPseudonym.get(m.pseudonymKey) === value
          ? { status: 'ok' }
          : { status: 'value', holder: value };
      const held = this.byPseudonym.get(m.pseudonymKey);
      if (held) return { status: 'pseudonym', holder: held };
      this.byValue.set(m.valueKey, m.sealed);
      this.byPseudonym.set(m.pseudonymKey, m.sealed);
      return { status: 'ok' };
    });
  }
  async reveal(keys: readonly string[]) {
    return keys.map((k) => this.byPseudonym.get(k));
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
    await shared.claim([sealMapping(createVaultSealer({ key }), theirs)]);
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
    const held = JSON.stringify([...shared.byValue, ...shared.byPseudonym]);
    expect(held).not.toContain('prod-db');
    expect(held).not.toContain(p);
    const sealed = [...shared.byPseudonym.values()][0] as string;
    expect(openMapping(createVaultSealer({ key }), sealed)).toMatchObject({
      real: 'prod-db.internal.example.com',
      pseudonym: p,
    });
    expect(() => openMapping(createVaultSealer({ key: 'other' }), sealed)).toThrow();
  });

  it('withdraws what it issued when the store fails, so nothing unshared is kept', async () => {
    const a = new TokenVault({ key });
    a.shareWith();
    const p = a.pseudonymize('db2', 'hostname');
    const down: SharedVaultStore = {
      claim: () => Promise.reject(new Error('down')),
      reveal: async () => [],
    };
    await expect(a.syncShared(down)).rejects.toThrow('down');
    expect(a.detokenize(p)).toBeUndefined();
  });
});
