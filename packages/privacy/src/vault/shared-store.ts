/**
 * The port of a vault shared between processes (replicas of one server). The vault keeps its
 * mappings in memory as before; a shared store is the arbiter of which mapping of a value, and
 * which holder of a pseudonym, is the one every process uses. This package only defines the
 * port (it stays free of dependencies); a Redis implementation lives elsewhere.
 */
import type { VaultEntry } from './types.js';

/** A pseudonym to look up, in its namespace. */
export interface SharedPseudonym {
  namespace: string;
  pseudonym: string;
}

/**
 * The answer to one claimed mapping: `ok` when the store now holds it (or already held the same
 * one); otherwise the mapping that already holds the value (`value`) or the pseudonym (`pseudonym`).
 */
export type SharedClaim =
  | { readonly status: 'ok' }
  | { readonly status: 'value' | 'pseudonym'; readonly holder: VaultEntry };

export interface SharedVaultStore {
  /**
   * Register mappings issued in this process, all in one round trip, atomically per mapping:
   * the first mapping of a (namespace, entity, value) and the first holder of a (namespace,
   * pseudonym) win. Answers one SharedClaim per mapping, in order.
   */
  claim(entries: readonly VaultEntry[]): Promise<SharedClaim[]>;
  /** The mappings of these pseudonyms, in one round trip; undefined where none is known. */
  reveal(keys: readonly SharedPseudonym[]): Promise<(VaultEntry | undefined)[]>;
}
