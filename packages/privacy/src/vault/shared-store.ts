/**
 * The port of a vault shared between processes (replicas of one server). The vault keeps its
 * mappings in memory as before; a shared store is the arbiter of which holder of a pseudonym, and
 * so which mapping of a value, is the one every process uses. This package only defines the port
 * (it stays free of dependencies); a Redis implementation lives elsewhere.
 *
 * The store never sees a real value or a pseudonym. The mappings a vault claims are sealed
 * together, in batches of up to CLAIM_PART, under the vault key (AES-256-GCM, as the vault file;
 * one seal per batch rather than one per mapping, which is what keeps a strict page of thousands
 * of new mappings cheap). Each mapping is handed over as two keyed digests
 * (VaultSealer.shortLookup): the pseudonym's, which is where the store files the mapping, and the
 * real value's, which it files with it to tell a holder of the same value from another value's.
 * Every process with the same vault key derives the same digests and opens the same batches;
 * without the key the store is opaque.
 *
 * One entry per mapping, by pseudonym, suffices because a pseudonym is derived from its value:
 * the vault tries the value's candidates (attempt 0, 1, ...) in order and takes the first that no
 * other value holds here, so another process's mapping of the same value is found under the same
 * candidate, or under one this process passed over because it holds that candidate for another
 * value; those are handed over with the mapping (`passed`) for the store to look at too. (An
 * earlier form also filed every mapping by a digest of its value: twice the entries in the
 * store, which was most of the store's work for a cold strict page.) A pseudonym built from
 * other mappings (an ARN from its account's and its resource's) depends on them as well as on
 * its value; when a sync finds that another process won one of them, the vault drops the
 * pseudonyms it built in that sync and builds them again on the winners (see
 * TokenVault.syncShared).
 */
import { randomBytes } from 'node:crypto';
import { VaultAuthenticationError } from './errors.js';
import type { VaultSealer } from './sealer.js';
import type { VaultEntry } from './types.js';

/** A sync's mappings, sealed as one record. */
export interface SealedBatch {
  /** Random, unique per batch; the seal is bound to it. */
  id: string;
  sealed: string;
}

/**
 * One mapping of a batch as the shared store sees it. Its reference is `<batch id>:<n>` for the
 * n-th mapping of the batch (0-based): its place in the sealed batch.
 */
export interface MappingKeys {
  /** Keyed digest of (namespace, pseudonym): where the mapping is filed and found. */
  pseudonymKey: string;
  /** Keyed digest of (namespace, real value): equal for every mapping of the same value. */
  valueKey: string;
  /**
   * Pseudonym keys of the value's earlier candidates, which this process passed over because it
   * holds them for other values: where another process may have filed the same value.
   */
  passed?: readonly string[];
  /**
   * Claimed under a SharedClock: when the mapping was last used (Unix milliseconds), which the
   * store records as its last use (a vault file's mappings keep their own, not the claim's time).
   */
  lastUsed?: number;
}

/**
 * The answer to one claimed mapping: `ok` when the store now holds it (or already held a mapping
 * of the same value under the same pseudonym); `value` when the value is already held under one
 * of the `passed` candidates, and `pseudonym` when another value holds the pseudonym, each with
 * the reference of the mapping the store holds.
 */
export type SharedClaim =
  | { readonly status: 'ok' }
  | {
      readonly status: 'value' | 'pseudonym';
      readonly holder: string;
      /** The value key the store files with the holder (the vault checks it against the row). */
      readonly valueKey: string;
      /**
       * Under a {@link SharedClock}, for `pseudonym`: when any process last used the holder (Unix
       * milliseconds), if the store knows. A `value` answer is itself a use of the holder.
       */
      readonly lastUsed?: number;
    };

/** One use of a mapping a process has not told the store yet. */
export interface SharedUse {
  /** The mapping's pseudonym key. */
  key: string;
  /** Unix milliseconds. */
  at: number;
}

/**
 * Handed to the store by a vault with a TTL, so the TTL is one clock for every process: the store
 * keeps each mapping's last use over all of them and forgets a mapping no process used for
 * `ttlMs`. Without it (a vault without a TTL) the store keeps mappings forever and no use time.
 */
export interface SharedClock {
  /** Unix milliseconds, by the vault's clock. */
  now: number;
  ttlMs: number;
  /** Uses to record first (latest time wins). */
  uses?: readonly SharedUse[];
}

/** A holder as the store files it: its reference and the value key filed with it. */
export interface SharedHolder {
  ref: string;
  valueKey: string;
}

/** References, with the sealed batches they point into (by batch id). */
export interface SharedAnswer<T> {
  answers: T[];
  batches: Record<string, string>;
}

export interface SharedVaultStore {
  /**
   * Register the mappings of one batch, all in one round trip, atomically per mapping, in order:
   * the first holder of a pseudonym key wins. Answers one SharedClaim per mapping and the batches
   * the holders are in. The batch is kept while any of its mappings is.
   */
  claim(
    batch: SealedBatch,
    mappings: readonly MappingKeys[],
    clock?: SharedClock,
  ): Promise<SharedAnswer<SharedClaim>>;
  /**
   * Replace a claimed batch with `batch` (the same id, sealed again with the mappings that lost
   * blanked), only while the store still keeps it: a losing mapping is then reachable by no
   * reference. claimPart calls it when a claim had losers.
   */
  reseal(batch: SealedBatch): Promise<void>;
  /**
   * Unfile mappings this process filed (each by its pseudonym key and the reference it was filed
   * with), where the store still files that reference there: a pseudonym built on a part whose
   * claim lost (TokenVault.syncShared) would otherwise keep revealing its value beside the one
   * built again on the winner. Optional: without it such a pseudonym stays filed.
   */
  withdraw?(filed: readonly { pseudonymKey: string; ref: string }[]): Promise<void>;
  /**
   * The holders of these pseudonym keys (undefined where none is known) and their batches.
   * Under a clock, a holder no process used for the TTL is dropped and answered undefined, and
   * one answered counts as used now.
   */
  reveal(
    pseudonymKeys: readonly string[],
    clock?: SharedClock,
  ): Promise<SharedAnswer<SharedHolder | undefined>>;
  /**
   * Record `clock.uses` and drop mappings no process used for the TTL (a bounded number per call,
   * the oldest first). Resolves to how many were dropped. Optional: a store without it keeps no
   * use times beyond those claims and reveals hand it.
   */
  touch?(clock: SharedClock): Promise<number>;
}

const SEP = '\u0000';

const pseudonymText = (namespace: string, pseudonym: string) => `p${SEP}${namespace}${SEP}${pseudonym}`;

/**
 * Without the entity: the same value pseudonymised as two entities may get the same pseudonym
 * (an address is permuted alike as `ip_address` and `private_ip`), and that is one holder, not a
 * collision.
 */
const valueText = (namespace: string, real: string) => `c${SEP}${namespace}${SEP}${real}`;

export function pseudonymKey(sealer: VaultSealer, namespace: string, pseudonym: string): string {
  return sealer.shortLookup(pseudonymText(namespace, pseudonym));
}

/** The pseudonym keys of many mappings at once (one CMAC pass, see VaultSealer.shortLookups). */
export function pseudonymKeys(
  sealer: VaultSealer,
  mappings: readonly { namespace: string; pseudonym: string }[],
): string[] {
  return sealer.shortLookups(mappings.map((m) => pseudonymText(m.namespace, m.pseudonym)));
}

const label = (id: string) => `vault-batch:${id}`;

/** The value key of a mapping (see MappingKeys.valueKey). */
export function valueKey(sealer: VaultSealer, namespace: string, real: string): string {
  return sealer.shortLookup(valueText(namespace, real));
}

/** One sealed row: namespace, entity, real value, pseudonym, created (Unix seconds); null once blanked. */
type Row = [string, string, string, string, number] | null;

const rowOf = (e: ClaimEntry): Row => [e.namespace, e.entity, e.real, e.pseudonym, e.created];

/** A mapping to claim, with the candidates its value passed over (see MappingKeys.passed). */
export interface ClaimEntry extends VaultEntry {
  passed?: readonly string[] | undefined;
}

/**
 * Seal mappings as one batch. Stored without use times: those change with every use, so a store
 * kept for a TTL (SharedClock) files them beside the batch, by pseudonym key.
 */
export function sealBatch(
  sealer: VaultSealer,
  entries: readonly ClaimEntry[],
): { batch: SealedBatch; mappings: MappingKeys[] } {
  const id = randomBytes(8).toString('hex');
  const rows = entries.map(rowOf);
  // Both digests of every mapping in one batch (the n-th mapping's at 2n and 2n + 1).
  const texts: string[] = [];
  for (const e of entries)
    texts.push(pseudonymText(e.namespace, e.pseudonym), valueText(e.namespace, e.real));
  const digests = sealer.shortLookups(texts);
  return {
    batch: { id, sealed: sealer.seal(JSON.stringify(rows), label(id)) },
    mappings: entries.map((e, i) => {
      const keys: MappingKeys = {
        pseudonymKey: digests[2 * i] as string,
        valueKey: digests[2 * i + 1] as string,
      };
      if (e.passed) keys.passed = e.passed.map((p) => pseudonymKey(sealer, e.namespace, p));
      return keys;
    }),
  };
}

/**
 * Mappings per claim. A strict page of new values issues thousands at once; claimed in parts,
 * each its own batch sent as soon as it is full (see TokenVault.shareWith), Redis settles one part
 * while this process goes on with its pass, instead of the two waiting on each other in turn.
 */
export const CLAIM_PART = 500;

/** How a claimed part ended: the holders (undefined where the claim took), or why it failed. */
export type ClaimedPart =
  | {
      readonly ok: true;
      readonly holders: readonly (VaultEntry | undefined)[];
      /** Where each mapping of the part was filed: its pseudonym key and reference (for withdraw). */
      readonly filed: readonly { pseudonymKey: string; ref: string }[];
    }
  | { readonly ok: false; readonly reason: unknown };

/**
 * Seal `entries` as one batch and claim them. Never rejects, so a part can be sent while the pass
 * that issued it goes on and be awaited only when the pass settles (no rejection left unheard).
 * Under a clock, each mapping's last use goes with it, and a holder's `lastUsed` (Unix seconds)
 * is that of the claimed mapping for a `value` answer (the claim is a use of the holder), the
 * store's record for a `pseudonym` answer.
 */
export function claimPart(
  sealer: VaultSealer,
  store: SharedVaultStore,
  entries: readonly ClaimEntry[],
  clock?: SharedClock,
): Promise<ClaimedPart> {
  const answer = async (): Promise<ClaimedPart> => {
    const { batch, mappings } = sealBatch(sealer, entries);
    if (clock)
      mappings.forEach((m, i) => {
        m.lastUsed = Math.round((entries[i] as ClaimEntry).lastUsed * 1000);
      });
    const claimed = clock ? await store.claim(batch, mappings, clock) : await store.claim(batch, mappings);
    // A losing row is sealed in the batch the store keeps for the winners: blank it there, so no
    // reference (a holder entry rewritten by someone who can write to the store) reaches it.
    if (claimed.answers.some((a) => a.status !== 'ok')) {
      const rows = entries.map((e, i) => (claimed.answers[i]?.status === 'ok' ? rowOf(e) : null));
      await store.reseal({ id: batch.id, sealed: sealer.seal(JSON.stringify(rows), label(batch.id)) });
    }
    const reader = new BatchReader(sealer);
    const holders = claimed.answers.map((a, i) => {
      if (a.status === 'ok') return undefined;
      const asked = entries[i] as ClaimEntry;
      const holder = reader.entry(a.holder, claimed.batches);
      if (!holder) throw new Error('the shared vault answered a holder without its batch');
      if (!answers(sealer, a, asked, holder)) throw new VaultAuthenticationError(FORGED);
      if (clock) {
        // Never later than the store's record, so this process expires it no later than the store.
        const own = (entries[i] as ClaimEntry).lastUsed;
        const used =
          a.status === 'value' ? own : a.lastUsed !== undefined ? a.lastUsed / 1000 : clock.now / 1000;
        return { ...holder, lastUsed: used };
      }
      return holder;
    });
    const filed = mappings.map((m, i) => ({ pseudonymKey: m.pseudonymKey, ref: `${batch.id}:${i}` }));
    return { ok: true, holders, filed };
  };
  return answer().catch((reason: unknown) => ({ ok: false, reason }));
}

const FORGED = { data: { reason: 'the shared vault answered a mapping other than the one asked for' } };

/**
 * Whether the row a claim's answer points at is the mapping that answer stands for. The store
 * only sees digests and the reference it was handed, and anyone who can write to it can rewrite a
 * holder entry: so the row must be the claimed mapping's namespace, its value's key must be the
 * one filed with the holder, and it must be what the answer says: for `value`, the claimed value
 * under one of the candidates it passed over; for `pseudonym`, the claimed pseudonym held by
 * another value. (The entity is not compared: one value as two entities is one holder.)
 */
function answers(sealer: VaultSealer, a: SharedClaim, asked: ClaimEntry, row: VaultEntry): boolean {
  if (a.status === 'ok' || row.namespace !== asked.namespace) return false;
  if (valueKey(sealer, row.namespace, row.real) !== a.valueKey) return false;
  if (a.status === 'value') return row.real === asked.real && (asked.passed ?? []).includes(row.pseudonym);
  return row.pseudonym === asked.pseudonym && row.real !== asked.real;
}

/**
 * Resolves references into mappings, opening each batch once (VaultAuthenticationError when
 * another key sealed it); undefined for a reference whose batch was not handed over, or whose
 * row was blanked (it lost its claim).
 */
export class BatchReader {
  readonly #opened = new Map<string, (VaultEntry | undefined)[]>();

  constructor(private readonly sealer: VaultSealer) {}

  entry(ref: string, batches: Record<string, string>): VaultEntry | undefined {
    const cut = ref.lastIndexOf(':');
    const id = ref.slice(0, cut);
    let entries = this.#opened.get(id);
    if (!entries) {
      const sealed = batches[id];
      if (sealed === undefined) return undefined;
      const rows = JSON.parse(this.sealer.open(sealed, label(id))) as Row[];
      entries = rows.map((row) => {
        if (row === null) return undefined;
        const [namespace, entity, real, pseudonym, created] = row;
        return { namespace, entity, real, pseudonym, created, lastUsed: created };
      });
      this.#opened.set(id, entries);
    }
    return entries[Number(ref.slice(cut + 1))];
  }

  /**
   * The mappings of revealed pseudonyms, each checked against what was asked: a row of another
   * namespace or pseudonym, or whose value's key is not the one filed with the holder, is
   * answered undefined (someone rewrote the holder entry; the pseudonym stays unknown here).
   */
  revealed(
    asked: readonly { namespace: string; pseudonym: string }[],
    found: SharedAnswer<SharedHolder | undefined>,
  ): (VaultEntry | undefined)[] {
    const rows = found.answers.map((holder, i) => {
      const row = holder === undefined ? undefined : this.entry(holder.ref, found.batches);
      const want = asked[i];
      return row && want && row.namespace === want.namespace && row.pseudonym === want.pseudonym
        ? row
        : undefined;
    });
    const present = rows.flatMap((row) => (row ? [valueText(row.namespace, row.real)] : []));
    const keys = present.length > 0 ? this.sealer.shortLookups(present) : [];
    let k = 0;
    return rows.map((row, i) => {
      if (!row) return undefined;
      const key = keys[k++];
      return key === found.answers[i]?.valueKey ? row : undefined;
    });
  }
}
