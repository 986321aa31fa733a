/**
 * What a vault with a TTL tells a shared store, so the TTL is one clock over every process (the
 * store's side runs against a real Redis in @cloudg/redis): claims and reveals carry the clock,
 * uses the store heard of recently wait and ride on the next reveal or sweep, uses of a mapping
 * the store heard of half a TTL ago are told at the sync, and a pseudonym expired here is asked
 * of the store instead of being refused outright.
 */
import { describe, expect, it } from 'vitest';
import { MemoryShared } from '../../test/memory-shared-store.js';
import type { MappingKeys, SealedBatch, SharedClock } from './shared-store.js';
import { TokenVault } from './token-vault.js';

const key = 'k'.repeat(32);
const T0 = 1_764_000_000_000;

/** The memory store, noting the clock of every call; `touch` records nothing and drops nothing. */
class ClockedShared extends MemoryShared {
  readonly calls: { kind: 'claim' | 'reveal' | 'touch'; clock: SharedClock | undefined }[] = [];
  override claim(batch: SealedBatch, mappings: readonly MappingKeys[], clock?: SharedClock) {
    this.calls.push({ kind: 'claim', clock });
    return super.claim(batch, mappings);
  }
  override reveal(keys: readonly string[], clock?: SharedClock) {
    this.calls.push({ kind: 'reveal', clock });
    return super.reveal(keys);
  }
  async touch(clock: SharedClock): Promise<number> {
    this.calls.push({ kind: 'touch', clock });
    return 0;
  }
  kinds(): string[] {
    return this.calls.map((c) => c.kind);
  }
}

function vault(ttlSeconds: number | null, time: { now: number }) {
  const v = new TokenVault({ key, ttlSeconds, clock: () => time.now });
  v.shareWith();
  return v;
}

describe('a shared vault with a TTL', () => {
  it('hands the store its clock with each claim; without a TTL, none', async () => {
    const time = { now: T0 };
    const store = new ClockedShared();
    const timed = vault(60, time);
    timed.pseudonymize('123456789012', 'aws_account_id');
    await timed.syncShared(store);
    expect(store.calls).toEqual([{ kind: 'claim', clock: { now: T0, ttlMs: 60_000 } }]);
    const plain = vault(null, time);
    plain.pseudonymize('210987654321', 'aws_account_id');
    await plain.syncShared(store);
    expect(store.calls[1]).toEqual({ kind: 'claim', clock: undefined });
  });

  it('leaves a use of a mapping the store heard of recently to the sweep, and tells one due at the sync', async () => {
    const time = { now: T0 };
    const store = new ClockedShared();
    const v = vault(60, time);
    const p = v.pseudonymize('123456789012', 'aws_account_id');
    await v.syncShared(store);
    time.now = T0 + 20_000;
    expect(v.detokenize(p)).toBe('123456789012');
    await v.syncShared(store);
    // A warm pass: no round trip of its own.
    expect(store.kinds()).toEqual(['claim']);
    await v.sweepShared(store);
    expect(store.calls[1]?.clock?.uses).toEqual([{ key: expect.any(String), at: T0 + 20_000 }]);
    // The store now holds the use at 20 s; 31 s after it, a use is due at once.
    time.now = T0 + 51_000;
    v.pseudonymize('123456789012', 'aws_account_id');
    await v.syncShared(store);
    expect(store.kinds()).toEqual(['claim', 'touch', 'touch']);
    expect(store.calls[2]?.clock?.uses?.[0]?.at).toBe(T0 + 51_000);
  });

  it('sends with a reveal the sync makes anyway the uses of mappings the store heard of a quarter TTL ago', async () => {
    const time = { now: T0 };
    const store = new ClockedShared();
    const v = vault(60, time);
    const old = v.pseudonymize('123456789012', 'aws_account_id');
    await v.syncShared(store);
    time.now = T0 + 18_000;
    const fresh = v.pseudonymize('210987654321', 'aws_account_id');
    await v.syncShared(store);
    time.now = T0 + 20_000;
    v.detokenize(old);
    v.detokenize(fresh);
    expect(v.detokenize('000000000000')).toBeUndefined();
    await v.syncShared(store);
    expect(store.kinds()).toEqual(['claim', 'claim', 'reveal']);
    // The store heard of `fresh` 2 s ago: its use waits for the sweep.
    expect(store.calls[2]?.clock).toEqual({
      now: T0 + 20_000,
      ttlMs: 60_000,
      uses: [{ key: expect.any(String), at: T0 + 20_000 }],
    });
    await v.sweepShared(store);
    expect(store.calls[3]?.clock?.uses).toHaveLength(1);
  });

  it('asks the store about a pseudonym expired here, and reveals it again when another process used it', async () => {
    const time = { now: T0 };
    const store = new ClockedShared();
    const a = vault(60, time);
    const p = a.pseudonymize('123456789012', 'aws_account_id');
    await a.syncShared(store);
    time.now = T0 + 61_000;
    expect(a.detokenize(p)).toBeUndefined();
    // The memory store keeps no use times, so it answers the holder as a store would one that
    // another process used meanwhile.
    expect(await a.syncShared(store)).toBe(true);
    expect(store.calls.at(-1)?.kind).toBe('reveal');
    expect(a.detokenize(p)).toBe('123456789012');
  });

  it('without sharing, an expired pseudonym stays refused', () => {
    const time = { now: T0 };
    const v = new TokenVault({ key, ttlSeconds: 60, clock: () => time.now });
    const p = v.pseudonymize('123456789012', 'aws_account_id');
    time.now = T0 + 61_000;
    expect(v.detokenize(p)).toBeUndefined();
    expect(v.detokenize(p)).toBeUndefined();
  });
});
