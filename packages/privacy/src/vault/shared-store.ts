/**
 * The port of a vault shared between processes (replicas of one server). The vault keeps its
 * mappings in memory as before; a shared store is the arbiter of which mapping of a value, and
 * which holder of a pseudonym, is the one every process uses. This package only defines the
 * port (it stays free of dependencies); a Redis implementation lives elsewhere.
 *
 * The store never sees a real value. The mappings a vault claims are sealed together, in batches
 * of up to CLAIM_PART, under the vault key (AES-256-GCM, as the vault file; one seal per batch
 * rather than one per mapping, which is what keeps a strict page of thousands of new mappings
 * cheap), and each mapping is handed over as two keyed digests to find it by (of the value and of
 * the pseudonym; VaultSealer.shortLookup) and a reference to its place in the batch. Every process with the same vault key derives the
 * same digests and opens the same batches; without the key the store is opaque.
 */
import { randomBytes } from 'node:crypto';
import type { VaultSealer } from './sealer.js';
import type { VaultEntry } from './types.js';

/** A sync's mappings, sealed as one record. */
export interface SealedBatch {
  /** Random, unique per batch; the seal is bound to it. */
  id: string;
  sealed: string;
}

/** One mapping of a batch as the shared store holds it. */
export interface MappingRef {
  /** Keyed digest of (namespace, entity, real value): where the value's mapping is found. */
  valueKey: string;
  /** Keyed digest of (namespace, pseudonym): where the pseudonym's holder is found. */
  pseudonymKey: string;
  /** `<batch id>:<index>`: the mapping's place in its batch. */
  ref: string;
}

/**
 * The answer to one claimed mapping: `ok` when the store now holds it (or already held the same
 * one); otherwise the reference of the mapping that already holds the value (`value`) or the
 * pseudonym (`pseudonym`).
 */
export type SharedClaim =
  | { readonly status: 'ok' }
  | { readonly status: 'value' | 'pseudonym'; readonly holder: string };

/** References, with the sealed batches they point into (by batch id). */
export interface SharedAnswer<T> {
  answers: T[];
  batches: Record<string, string>;
}

export interface SharedVaultStore {
  /**
   * Register the mappings of one batch, all in one round trip, atomically per mapping: the first
   * mapping of a value key and the first holder of a pseudonym key win. Answers one SharedClaim
   * per mapping, in order, and the batches the holders are in. The batch is kept while any of
   * its mappings is.
   */
  claim(batch: SealedBatch, mappings: readonly MappingRef[]): Promise<SharedAnswer<SharedClaim>>;
  /** The references of these pseudonym keys (undefined where none is known) and their batches. */
  reveal(pseudonymKeys: readonly string[]): Promise<SharedAnswer<string | undefined>>;
}

const SEP = '\u0000';

export function pseudonymKey(sealer: VaultSealer, namespace: string, pseudonym: string): string {
  return sealer.shortLookup(`p${SEP}${namespace}${SEP}${pseudonym}`);
}

function valueKey(sealer: VaultSealer, e: VaultEntry): string {
  return sealer.shortLookup(`v${SEP}${e.namespace}${SEP}${e.entity}${SEP}${e.real}`);
}

const label = (id: string) => `vault-batch:${id}`;

/** Seal mappings as one batch. Stored without use times: they are each process's own. */
export function sealBatch(
  sealer: VaultSealer,
  entries: readonly VaultEntry[],
): { batch: SealedBatch; mappings: MappingRef[] } {
  const id = randomBytes(8).toString('hex');
  const rows = entries.map((e) => [e.namespace, e.entity, e.real, e.pseudonym, e.created]);
  return {
    batch: { id, sealed: sealer.seal(JSON.stringify(rows), label(id)) },
    mappings: entries.map((e, i) => ({
      valueKey: valueKey(sealer, e),
      pseudonymKey: pseudonymKey(sealer, e.namespace, e.pseudonym),
      ref: `${id}:${i}`,
    })),
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
  | { readonly ok: true; readonly holders: readonly (VaultEntry | undefined)[] }
  | { readonly ok: false; readonly reason: unknown };

/**
 * Seal `entries` as one batch and claim them. Never rejects, so a part can be sent while the pass
 * that issued it goes on and be awaited only when the pass settles (no rejection left unheard).
 */
export function claimPart(
  sealer: VaultSealer,
  store: SharedVaultStore,
  entries: readonly VaultEntry[],
): Promise<ClaimedPart> {
  const answer = async (): Promise<ClaimedPart> => {
    const { batch, mappings } = sealBatch(sealer, entries);
    const claimed = await store.claim(batch, mappings);
    const reader = new BatchReader(sealer);
    const holders = claimed.answers.map((a) => {
      if (a.status === 'ok') return undefined;
      const holder = reader.entry(a.holder, claimed.batches);
      if (!holder) throw new Error('the shared vault answered a holder without its batch');
      return holder;
    });
    return { ok: true, holders };
  };
  return answer().catch((reason: unknown) => ({ ok: false, reason }));
}

/**
 * Resolves references into mappings, opening each batch once (VaultAuthenticationError when
 * another key sealed it); undefined for a reference whose batch was not handed over.
 */
export class BatchReader {
  readonly #opened = new Map<string, VaultEntry[]>();

  constructor(private readonly sealer: VaultSealer) {}

  entry(ref: string, batches: Record<string, string>): VaultEntry | undefined {
    const cut = ref.lastIndexOf(':');
    const id = ref.slice(0, cut);
    let entries = this.#opened.get(id);
    if (!entries) {
      const sealed = batches[id];
      if (sealed === undefined) return undefined;
      const rows = JSON.parse(this.sealer.open(sealed, label(id))) as [
        string,
        string,
        string,
        string,
        number,
      ][];
      entries = rows.map(([namespace, entity, real, pseudonym, created]) => ({
        namespace,
        entity,
        real,
        pseudonym,
        created,
        lastUsed: created,
      }));
      this.#opened.set(id, entries);
    }
    return entries[Number(ref.slice(cut + 1))];
  }
}
