/**
 * What a formatter sees. Formatters turn one real value into a pseudonym of the same shape;
 * they never touch the vault's maps themselves: nested components (an ARN's account, an
 * e-mail's domain) go through `sub`, which registers them on their own so they can be looked
 * up and reversed alone.
 */
import type { IpPermuter } from '../ip/permutation.js';

export interface FormatContext {
  readonly namespace: string;
  /** 0 for the canonical pseudonym; higher after collisions. */
  readonly attempt: number;
  /** HMAC-SHA256(token key, namespace | entity | attempt | value), 64 hex characters. */
  digest(entity: string, value: string): string;
  /** Pseudonymise a component in the same namespace (registered as its own mapping). */
  sub(value: string, entity: string): string;
  /** The namespace's prefix-preserving permutation for IPv4 (4) or IPv6 (16) addresses. */
  permuter(width: 4 | 16): IpPermuter;
}

/** Returns the pseudonym, or null when the value is left as it is (and not registered). */
export type Formatter = (value: string, entity: string, ctx: FormatContext) => string | null;
