/**
 * The freshness window of the signals between replicas, on its own clock: a signal is taken
 * once within the bound, never outside it, and a nonce is remembered only as long as the age
 * check alone would not refuse its signal, so the memory stays one window's worth.
 */
import { describe, expect, it } from 'vitest';
import { SIGNAL_MAX_AGE_MS, SignalFreshness } from '../src/session-freshness.js';

describe('SignalFreshness', () => {
  it('takes a signal once, within the bound either side of its send time', () => {
    const fresh = new SignalFreshness(1000);
    const now = 1_000_000;
    expect(fresh.accept(now - 400, 'a', now)).toBe(true);
    expect(fresh.accept(now - 400, 'a', now + 10)).toBe(false);
    // A sender whose clock runs a little ahead is still heard.
    expect(fresh.accept(now + 300, 'b', now)).toBe(true);
    expect(fresh.accept(now - 1001, 'c', now)).toBe(false);
    expect(fresh.accept(now + 1001, 'd', now)).toBe(false);
  });

  it('forgets a nonce once its signal is too old to pass anyway', () => {
    const fresh = new SignalFreshness(1000);
    const now = 1_000_000;
    for (let i = 0; i < 100; i++) expect(fresh.accept(now + i, `n${i}`, now + i)).toBe(true);
    expect(fresh.size).toBe(100);
    // Past the bound of the first fifty: forgotten, and refused by age alone.
    expect(fresh.accept(now + 1050, 'later', now + 1050)).toBe(true);
    expect(fresh.size).toBe(51);
    expect(fresh.accept(now, 'n0', now + 1050)).toBe(false);
  });

  it('waits thirty seconds by default', () => {
    const fresh = new SignalFreshness();
    expect(SIGNAL_MAX_AGE_MS).toBe(30_000);
    expect(fresh.accept(0, 'x', SIGNAL_MAX_AGE_MS)).toBe(true);
    expect(fresh.accept(0, 'y', SIGNAL_MAX_AGE_MS + 1)).toBe(false);
  });
});
