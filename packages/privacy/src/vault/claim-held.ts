/**
 * Claiming in a shared store the mappings a vault holds without having issued them: the ones it
 * loaded from its file. Without this they would stay the replica's own (another replica could
 * not reveal them, and could file their values under other pseudonyms). A replica started first
 * files them, so a team moving from one node to replicas keeps its pseudonyms; a later replica
 * whose file disagrees with what the store holds takes the store's mappings instead.
 *
 * Each mapping is claimed as a pass would claim it had it just issued it: with the candidates its
 * value passed over (see held-derivation.ts), and only once the mappings that answer rests on are
 * settled, so it is claimed on the parts and holders every replica uses. That makes rounds: the
 * mappings that rest on nothing first (most of them), then those built on them (hostnames on
 * their labels, ARNs on their accounts), and so on. A mapping whose pseudonym a pass would no
 * longer issue (a part of it or the holder of an earlier candidate was replaced in an earlier
 * round, or the file was written under other rules) is dropped rather than claimed: claimed, its
 * value could end up filed under two pseudonyms. A pass derives it again, on the winners.
 */

import type { HeldDerivation } from './held-derivation.js';
import type { VaultSealer } from './sealer.js';
import {
  CLAIM_PART,
  type ClaimEntry,
  claimPart,
  type SharedClock,
  type SharedVaultStore,
} from './shared-store.js';
import type { StoredEntry } from './store.js';
import type { VaultEntry } from './types.js';

/** What claiming a vault's held mappings did, in counts (never values). */
export interface HeldShare {
  /** Mappings the vault held without having issued them (from its file). */
  held: number;
  /** Now in the shared store as held (filed by this vault, or already filed the same). */
  kept: number;
  /** Replaced by the store's mapping of the value, or of the pseudonym for another value. */
  replaced: number;
  /** Forgotten: a pass would no longer issue them as held; the next pass derives them again. */
  dropped: number;
}

/** The vault's side of a claim of held mappings. */
export interface HeldClaimHost {
  readonly sealer: VaultSealer;
  /** Whether `entry` is still the vault's mapping of its value (an adopted one may replace it). */
  holds(entry: StoredEntry): boolean;
  derive(entry: StoredEntry): HeldDerivation;
  claimOf(entry: StoredEntry, passed: readonly string[]): ClaimEntry;
  /** Forget a held mapping (dropped, or its claim lost). */
  forget(entry: StoredEntry): void;
  /** Take the store's mapping. */
  adopt(entry: VaultEntry): void;
  /** Under a TTL, the clock each claim hands the store (see SharedClock). */
  clock?(): SharedClock | undefined;
}

/**
 * Parts in flight at once: a file of many thousand mappings is a burst of scripts, each on a
 * one-second command timeout; a few at a time keep Redis busy without queueing the last ones
 * past it.
 */
const PARTS_IN_FLIGHT = 4;

/** Claim `entries` (the vault's held mappings) in rounds; rejects with the store's error. */
export async function claimHeld(
  host: HeldClaimHost,
  store: SharedVaultStore,
  entries: readonly StoredEntry[],
): Promise<HeldShare> {
  const report: HeldShare = { held: entries.length, kept: 0, replaced: 0, dropped: 0 };
  const pending = new Set(entries);
  while (pending.size > 0) {
    const before = pending.size;
    let ready = readyOf(host, pending, report, false);
    // Nothing could go (parts waiting on each other, which derivations never make on purpose):
    // the rest go as they are now.
    if (ready.length === 0 && pending.size === before) ready = readyOf(host, pending, report, true);
    const holders = await claimAll(host, store, ready);
    holders.forEach((holder, i) => {
      if (!holder) {
        report.kept++;
        return;
      }
      host.forget(ready[i]?.entry as StoredEntry);
      host.adopt(holder);
      report.replaced++;
    });
  }
  return report;
}

interface Ready {
  entry: StoredEntry;
  passed: readonly string[];
}

/**
 * Take out of `pending` the mappings that can be decided now: gone ones (replaced by an adopted
 * mapping) are counted, underivable ones dropped, and the rest returned to be claimed. With
 * `all`, mappings whose parts are still pending are decided too.
 */
function readyOf(host: HeldClaimHost, pending: Set<StoredEntry>, report: HeldShare, all: boolean): Ready[] {
  const ready: Ready[] = [];
  // What was pending when the round began: a part decided in this round is claimed in it too, so
  // what is built on it waits for the next, when its answer is known.
  const waiting = new Set(pending);
  for (const entry of waiting) {
    if (!host.holds(entry)) {
      pending.delete(entry);
      report.replaced++;
      continue;
    }
    const derived = host.derive(entry);
    if (!all && derived.parts.some((part) => part !== entry && waiting.has(part))) continue;
    pending.delete(entry);
    if (derived.derivable) ready.push({ entry, passed: derived.passed });
    else {
      host.forget(entry);
      report.dropped++;
    }
  }
  return ready;
}

/** Claim in parts, a few in flight at once; the holder of each (undefined where the claim took). */
async function claimAll(
  host: HeldClaimHost,
  store: SharedVaultStore,
  ready: readonly Ready[],
): Promise<(VaultEntry | undefined)[]> {
  const parts: Ready[][] = [];
  for (let at = 0; at < ready.length; at += CLAIM_PART) parts.push(ready.slice(at, at + CLAIM_PART));
  const answers: (readonly (VaultEntry | undefined)[])[] = new Array(parts.length);
  let next = 0;
  const worker = async () => {
    while (next < parts.length) {
      const index = next++;
      const part = parts[index] as Ready[];
      const claimed = await claimPart(
        host.sealer,
        store,
        part.map((r) => host.claimOf(r.entry, r.passed)),
        host.clock?.(),
      );
      if (!claimed.ok) throw claimed.reason;
      answers[index] = claimed.holders;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, parts.length) }, worker));
  return answers.flat();
}
