/** Two vaults (two processes) settling through one shared store: reveal across, one winner per value and per pseudonym. */
import { describe, expect, it } from 'vitest';
import type { SharedClaim, SharedPseudonym, SharedVaultStore } from './shared-store.js';
import { TokenVault } from './token-vault.js';
import type { VaultEntry } from './types.js';

/** The arbiter's rules in memory, as a shared store applies them. */
class MemoryShared implements SharedVaultStore {
  readonly byValue = new Map<string, VaultEntry>();
  readonly byPseudonym = new Map<string, VaultEntry>();
  async claim(entries: readonly VaultEntry[]): Promise<SharedClaim[]> {
    return entries.map((e) => {
      const value = this.byValue.get(`${e.namespace}|${e.entity}|${e.real}`);
      if (value)
        return value.pseudonym === e.pseudonym ? { status: 'ok' } : { status: 'value', holder: value };
      const held = this.byPseudonym.get(`${e.namespace}|${e.pseudonym}`);
      if (held && held.real !== e.real) return { status: 'pseudonym', holder: held };
      this.byValue.set(`${e.namespace}|${e.entity}|${e.real}`, e);
      this.byPseudonym.set(`${e.namespace}|${e.pseudonym}`, e);
      return { status: 'ok' };
    });
  }
  async reveal(keys: readonly SharedPseudonym[]) {
    return keys.map((k) => this.byPseudonym.get(`${k.namespace}|${k.pseudonym}`));
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
    await shared.claim([theirs]);
    const mine = a.pseudonymize('db1', 'hostname');
    expect(mine).not.toBe('host-zz');
    expect(await a.syncShared(shared)).toBe(true);
    expect(a.pseudonymize('db1', 'hostname')).toBe('host-zz');
    expect(await a.syncShared(shared)).toBe(false);
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
