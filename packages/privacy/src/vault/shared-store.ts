/**
 * The port of a vault shared between processes (replicas of one server). The vault keeps its
 * mappings in memory as before; a shared store is the arbiter of which mapping of a value, and
 * which holder of a pseudonym, is the one every process uses. This package only defines the
 * port (it stays free of dependencies); a Redis implementation lives elsewhere.
 *
 * The store never sees a real value: the vault hands it each mapping sealed under the vault key
 * (AES-256-GCM, as the vault file) with two keyed digests to find it by, one of the value and one
 * of the pseudonym. Every process with the same vault key derives the same digests, so a lookup
 * by value or by pseudonym still works across processes; without the key the store is opaque.
 */
import type { VaultSealer } from './sealer.js';
import type { VaultEntry } from './types.js';

/** A mapping as the shared store holds it. */
export interface SealedMapping {
  /** Keyed digest of (namespace, entity, real value): where the value's mapping is found. */
  valueKey: string;
  /** Keyed digest of (namespace, pseudonym): where the pseudonym's holder is found. */
  pseudonymKey: string;
  /** The mapping itself, sealed. */
  sealed: string;
}

/**
 * The answer to one claimed mapping: `ok` when the store now holds it (or already held the same
 * one); otherwise the sealed mapping that already holds the value (`value`) or the pseudonym
 * (`pseudonym`).
 */
export type SharedClaim =
  | { readonly status: 'ok' }
  | { readonly status: 'value' | 'pseudonym'; readonly holder: string };

export interface SharedVaultStore {
  /**
   * Register mappings issued in this process, all in one round trip, atomically per mapping:
   * the first mapping of a value key and the first holder of a pseudonym key win. Answers one
   * SharedClaim per mapping, in order.
   */
  claim(mappings: readonly SealedMapping[]): Promise<SharedClaim[]>;
  /** The sealed mappings of these pseudonym keys, in one round trip; undefined where none is known. */
  reveal(pseudonymKeys: readonly string[]): Promise<(string | undefined)[]>;
}

const SEP = '\u0000';
const LABEL = 'vault-mapping';

export function pseudonymKey(sealer: VaultSealer, namespace: string, pseudonym: string): string {
  return sealer.lookup(`p${SEP}${namespace}${SEP}${pseudonym}`);
}

/** Stored without use times: they are each process's own (a TTL is not shared). */
export function sealMapping(sealer: VaultSealer, e: VaultEntry): SealedMapping {
  return {
    valueKey: sealer.lookup(`v${SEP}${e.namespace}${SEP}${e.entity}${SEP}${e.real}`),
    pseudonymKey: pseudonymKey(sealer, e.namespace, e.pseudonym),
    sealed: sealer.seal(JSON.stringify([e.namespace, e.entity, e.real, e.pseudonym, e.created]), LABEL),
  };
}

/** The mapping a sealed record holds; VaultAuthenticationError when another key sealed it. */
export function openMapping(sealer: VaultSealer, sealed: string): VaultEntry {
  const [namespace, entity, real, pseudonym, created] = JSON.parse(sealer.open(sealed, LABEL)) as [
    string,
    string,
    string,
    string,
    number,
  ];
  return { namespace, entity, real, pseudonym, created, lastUsed: created };
}
