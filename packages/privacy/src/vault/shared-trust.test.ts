/**
 * What a replica takes from the shared store, and when it settles, with someone able to write to
 * the store but without the vault key, and with several passes on one vault at once.
 */
import { describe, expect, it } from 'vitest';
import { MemoryShared } from '../../test/memory-shared-store.js';
import { VaultAuthenticationError } from './errors.js';
import { createVaultSealer } from './sealer.js';
import {
  BatchReader,
  type ClaimEntry,
  claimPart,
  pseudonymKey,
  type SharedHolder,
  type SharedVaultStore,
  sealBatch,
  valueKey,
} from './shared-store.js';
import { TokenVault } from './token-vault.js';

const key = 'k'.repeat(32);
const sealer = createVaultSealer({ key });
const mapping = (real: string, pseudonym: string): ClaimEntry => ({
  namespace: 'global',
  entity: 'hostname',
  real,
  pseudonym,
  created: 1,
  lastUsed: 1,
});

/** A files db1 -> P and db2 -> Q; P's holder entry is then overwritten with Q's, value key and all. */
async function pointedAtOther() {
  const shared = new MemoryShared();
  const a = new TokenVault({ key });
  a.shareWith();
  const p = a.pseudonymize('db1', 'hostname');
  const q = a.pseudonymize('db2', 'hostname');
  await a.syncShared(shared);
  const qHolder = shared.holders.get(pseudonymKey(sealer, 'global', q)) as SharedHolder;
  shared.holders.set(pseudonymKey(sealer, 'global', p), { ...qHolder });
  return { shared, p, q };
}

/** A files db1 -> P; B's part then claims db9 -> P (a collision it loses) and other -> zz-other. */
async function collided() {
  const shared = new MemoryShared();
  const a = new TokenVault({ key });
  a.shareWith();
  const p = a.pseudonymize('db1', 'hostname');
  await a.syncShared(shared);
  const part = await claimPart(sealer, shared, [mapping('db9', p), mapping('other', 'zz-other')]);
  expect(part.ok).toBe(true);
  const ref = shared.holders.get(pseudonymKey(sealer, 'global', 'zz-other'))?.ref as string;
  const batch = ref.slice(0, ref.indexOf(':'));
  return { shared, a, p, batch };
}

describe('a holder entry rewritten in the store', () => {
  it('cannot reach the losing mapping of a claimed batch: the loser is blanked once the claim answers', async () => {
    const { shared, p, batch } = await collided();
    const reader = new BatchReader(sealer);
    const batches = { [batch]: shared.batches.get(batch) as string };
    expect(reader.entry(`${batch}:0`, batches)).toBeUndefined();
    expect(reader.entry(`${batch}:1`, batches)?.real).toBe('other');
    // The writer points P at the loser with the loser's true value key.
    shared.holders.set(pseudonymKey(sealer, 'global', p), {
      ref: `${batch}:0`,
      valueKey: valueKey(sealer, 'global', 'db9'),
    });
    const c = new TokenVault({ key });
    c.shareWith();
    expect(c.detokenize(p)).toBeUndefined();
    await c.syncShared(shared);
    expect(c.detokenize(p)).toBeUndefined();
  });

  it('is not revealed when its row is not the mapping asked for or its value key is not the row value', async () => {
    // P pointed at Q's genuine holder, value key and all.
    const { shared, p, q } = await pointedAtOther();
    const c = new TokenVault({ key });
    c.shareWith();
    c.detokenize(p);
    expect(await c.syncShared(shared)).toBe(false);
    expect(c.detokenize(p)).toBeUndefined();
    // A row of the pseudonym asked for, filed with another value's key (a losing pair sealed
    // alone, never reseal'd, as a store that ignored the blanking would keep it).
    const loser = sealBatch(sealer, [mapping('db9', p)]);
    shared.batches.set(loser.batch.id, loser.batch.sealed);
    shared.holders.set(pseudonymKey(sealer, 'global', p), { ref: `${loser.batch.id}:0`, valueKey: 'forged' });
    c.detokenize(p);
    await c.syncShared(shared);
    expect(c.detokenize(p)).toBeUndefined();
    // The untouched holder still reveals.
    c.detokenize(q);
    await c.syncShared(shared);
    expect(c.detokenize(q)).toBe('db2');
  });

  it('fails a claim it answers with a mapping other than the one claimed, adopting nothing', async () => {
    // P's holder replaced by Q's: a replica claiming db1 -> P is told another value holds P.
    const { shared, p } = await pointedAtOther();
    const d = new TokenVault({ key });
    d.shareWith();
    expect(d.pseudonymize('db1', 'hostname')).toBe(p);
    await expect(d.syncShared(shared)).rejects.toBeInstanceOf(VaultAuthenticationError);
    // Neither db2 -> Q adopted nor db1 kept unshared.
    expect(d.lookup('db2', 'hostname')).toBeUndefined();
    expect(d.lookup('db1', 'hostname')).toBeUndefined();
  });
});

describe('several passes on one vault', () => {
  it('a sync waits for a claim another sync sent for a mapping its pass used, and reports the loss', async () => {
    const shared = new MemoryShared();
    // Another replica filed db9 under the pseudonym db1 derives to.
    const p = new TokenVault({ key }).pseudonymize('db1', 'hostname');
    await claimPart(sealer, shared, [mapping('db9', p)]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow: SharedVaultStore = {
      claim: async (b, m) => {
        await gate;
        return shared.claim(b, m);
      },
      reveal: (k) => shared.reveal(k),
      reseal: (b) => shared.reseal(b),
    };
    const a = new TokenVault({ key });
    a.shareWith(slow);
    expect(a.pseudonymize('db1', 'hostname')).toBe(p);
    const sync1 = a.syncShared(slow);
    // Pass 2 reuses db1 -> P while pass 1's claim of it is unanswered.
    expect(a.pseudonymize('db1', 'hostname')).toBe(p);
    let settled2 = false;
    const sync2 = a.syncShared(slow).then((changed) => {
      settled2 = true;
      return changed;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(settled2).toBe(false);
    release();
    expect(await sync1).toBe(true);
    expect(await sync2).toBe(true);
    // The rerun pass 2 makes gives db1 another pseudonym; P is db9's here as everywhere.
    expect(a.detokenize(p)).toBe('db9');
    expect(a.pseudonymize('db1', 'hostname')).not.toBe(p);
  });

  it('a failed pass withdraws only the mappings it issued, not those of a pass still settling', async () => {
    const shared = new MemoryShared();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow: SharedVaultStore = {
      claim: (b, m) => shared.claim(b, m),
      reveal: async (k) => {
        await gate;
        return shared.reveal(k);
      },
      reseal: (b) => shared.reseal(b),
    };
    const a = new TokenVault({ key });
    a.shareWith(slow);
    // Pass 2 missed a pseudonym (its sync reveals it first) and issued web-7's.
    a.detokenize('host-0123abcd.example');
    const out = a.pseudonymize('web-7.corp', 'hostname');
    const sync2 = a.syncShared(slow);
    // Pass 1 issues a mapping, then fails: the pipeline drops what it issued.
    const mark = a.passMark();
    const failed = a.pseudonymize('db-failed.corp', 'hostname');
    a.discardUnclaimed(mark);
    release();
    expect(await sync2).toBe(false);
    expect(a.detokenize(out)).toBe('web-7.corp');
    expect(a.detokenize(failed)).toBeUndefined();
    // web-7's mapping is in the store, the failed pass's is not.
    const b = new TokenVault({ key });
    b.shareWith();
    b.detokenize(out);
    b.detokenize(failed);
    await b.syncShared(shared);
    expect(b.detokenize(out)).toBe('web-7.corp');
    expect(b.detokenize(failed)).toBeUndefined();
  });
});

describe('a vault file claimed against the store', () => {
  it('takes the store mapping of a value whose own mapping was the last of its entity', async () => {
    // Two numbers whose first candidates are the same pseudonym under this key.
    const single = () => new TokenVault({ key });
    const probe = single();
    let u = '';
    let v = '';
    for (let n = 10; n < 100 && v === ''; n++) {
      const before = probe.stats().counters.collisions;
      probe.pseudonymize(String(n), 'number');
      if (probe.stats().counters.collisions > before) {
        v = String(n);
        u = probe.detokenize(single().pseudonymize(v, 'number')) as string;
      }
    }
    const fileOf = (values: string[]) => {
      const s = single();
      for (const x of values) s.pseudonymize(x, 'number');
      return s.export();
    };
    const shared = new MemoryShared();
    const a = single();
    a.importMappings(fileOf([u, v]));
    a.shareWith(shared);
    await a.shareHeld(shared);
    // C's file has them the other way round: it loses both and takes A's mapping of u.
    const c = single();
    c.importMappings(fileOf([v, u]));
    c.shareWith(shared);
    expect(await c.shareHeld(shared)).toMatchObject({ replaced: 2 });
    expect(c.lookup(u, 'number')).toBe(a.lookup(u, 'number'));
    expect(c.stats().entries).toBe(1);
  });
});

describe('a vault file claimed against a rewritten holder entry', () => {
  it('refuses the claim and keeps the file mapping, adopting nothing', async () => {
    const { shared, p } = await pointedAtOther();
    // C's file holds db1 -> P, as A filed it.
    const file = new TokenVault({ key });
    file.pseudonymize('db1', 'hostname');
    const c = new TokenVault({ key });
    c.importMappings(file.export());
    c.shareWith(shared);
    await expect(c.shareHeld(shared)).rejects.toBeInstanceOf(VaultAuthenticationError);
    expect(c.lookup('db1', 'hostname')).toBe(p);
    expect(c.lookup('db2', 'hostname')).toBeUndefined();
  });
});
