/**
 * Working out again how a mapping the vault holds without having issued it (one loaded from its
 * file) was derived: at which attempt its value reaches its pseudonym, and which candidates it
 * passed over on the way. A shared store files one entry per pseudonym, and a value is found
 * there only under a candidate a claim names (see shared-store.ts); so a held mapping can be
 * claimed only when the vault can name the candidates before it, each held here by another value,
 * exactly as a pass that issued it now would. Nothing here issues a mapping: parts of a built
 * pseudonym (an ARN's account, a hostname's labels) are looked up, never created.
 */
import { FORMAT_ATTEMPTS, leftAlone, MAX_ATTEMPTS } from './attempts.js';
import type { FormatContext } from './format/context.js';
import { formatterFor } from './format/dispatch.js';
import { formatGeneric } from './format/simple.js';
import type { IpPermuter } from './ip/permutation.js';
import type { StoredEntry } from './store.js';

/**
 * `passed`: the distinct candidates before the pseudonym, in order. `parts`: the mappings the
 * answer rests on (the parts a built pseudonym was made of, the holders of the passed
 * candidates), which must be settled before the mapping is claimed. Not derivable: the
 * pseudonym is not what a pass would issue for the value now (a part is missing or changed, an
 * earlier candidate is free, or the file was written under other rules); a pass derives it anew.
 */
export type HeldDerivation =
  | { readonly derivable: true; readonly passed: readonly string[]; readonly parts: readonly StoredEntry[] }
  | { readonly derivable: false; readonly parts: readonly StoredEntry[] };

/** What a derivation reads of the vault. */
export interface DerivationSource {
  /** The issuing context of one attempt (for its digests and permutations; its `sub` is not used). */
  context(namespace: string, attempt: number): FormatContext;
  /** The live mapping of a value as an entity, if any. */
  mappingOf(namespace: string, entity: string, value: string): StoredEntry | undefined;
  /** The live mapping holding a pseudonym, if any. */
  holderOf(namespace: string, pseudonym: string): StoredEntry | undefined;
}

/** A part of a built pseudonym that the vault does not hold. */
class PartNotHeld extends Error {}

/** An attempt's context whose parts are looked up and recorded instead of issued. */
class LookupContext implements FormatContext {
  constructor(
    private readonly source: DerivationSource,
    private readonly inner: FormatContext,
    private readonly parts: StoredEntry[],
  ) {}
  get namespace(): string {
    return this.inner.namespace;
  }
  get attempt(): number {
    return this.inner.attempt;
  }
  digest(entity: string, value: string): string {
    return this.inner.digest(entity, value);
  }
  permuter(width: 4 | 16): IpPermuter {
    return this.inner.permuter(width);
  }
  sub(value: string, entity: string): string {
    const held = this.source.mappingOf(this.namespace, entity, value);
    if (held) {
      this.parts.push(held);
      return held.pseudonym;
    }
    // Handed back unchanged by pseudonymize, so no mapping is expected.
    if (leftAlone(value)) return value;
    const own = formatterFor(entity)(value, entity, this.lookup(0));
    if (own === null) return value;
    throw new PartNotHeld();
  }
  private lookup(attempt: number): LookupContext {
    return new LookupContext(this.source, this.source.context(this.namespace, attempt), this.parts);
  }
}

export function deriveHeld(entry: StoredEntry, source: DerivationSource): HeldDerivation {
  const { namespace, entity, real, pseudonym } = entry;
  const format = formatterFor(entity);
  const passed: string[] = [];
  const parts: StoredEntry[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const ctx = new LookupContext(source, source.context(namespace, attempt), parts);
    let candidate: string | null;
    try {
      candidate = attempt >= FORMAT_ATTEMPTS ? formatGeneric(real, entity, ctx) : format(real, entity, ctx);
    } catch (error) {
      if (error instanceof PartNotHeld) return { derivable: false, parts };
      throw error;
    }
    if (candidate === pseudonym) return { derivable: true, passed, parts };
    // null: the value is left alone, so a pass would not map it at all.
    if (candidate === null) return { derivable: false, parts };
    // A built pseudonym is the same at every attempt until the generic ones.
    if (passed.includes(candidate)) continue;
    const holder = source.holderOf(namespace, candidate);
    // A pass takes the first candidate no other value holds: this one, not the pseudonym held.
    if (!holder || holder.real === real) return { derivable: false, parts };
    passed.push(candidate);
    parts.push(holder);
  }
  return { derivable: false, parts };
}
