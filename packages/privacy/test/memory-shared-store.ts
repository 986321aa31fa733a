/** A shared vault store in memory, for the tests of vaults settling through one. */
import type {
  MappingKeys,
  SealedBatch,
  SharedAnswer,
  SharedClaim,
  SharedHolder,
  SharedVaultStore,
} from '../src/vault/shared-store.js';

/** The arbiter's rules in memory, as a shared store applies them: it sees digests, references and sealed batches only. */
export class MemoryShared implements SharedVaultStore {
  /** Pseudonym key -> the holder's reference and value key. */
  readonly holders = new Map<string, SharedHolder>();
  readonly batches = new Map<string, string>();
  claims = 0;
  #with(refs: (string | undefined)[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const ref of refs) {
      const id = ref?.split(':')[0];
      if (id !== undefined && this.batches.has(id)) out[id] = this.batches.get(id) as string;
    }
    return out;
  }
  async claim(batch: SealedBatch, mappings: readonly MappingKeys[]): Promise<SharedAnswer<SharedClaim>> {
    this.claims++;
    this.batches.set(batch.id, batch.sealed);
    const answers = mappings.map((m, i): SharedClaim => {
      for (const passed of m.passed ?? []) {
        const other = this.holders.get(passed);
        if (other?.valueKey === m.valueKey)
          return { status: 'value', holder: other.ref, valueKey: other.valueKey };
      }
      const held = this.holders.get(m.pseudonymKey);
      if (held)
        return held.valueKey === m.valueKey
          ? { status: 'ok' }
          : { status: 'pseudonym', holder: held.ref, valueKey: held.valueKey };
      this.holders.set(m.pseudonymKey, { ref: `${batch.id}:${i}`, valueKey: m.valueKey });
      return { status: 'ok' };
    });
    return { answers, batches: this.#with(answers.map((a) => (a.status === 'ok' ? undefined : a.holder))) };
  }
  async withdraw(filed: readonly { pseudonymKey: string; ref: string }[]): Promise<void> {
    for (const f of filed)
      if (this.holders.get(f.pseudonymKey)?.ref === f.ref) this.holders.delete(f.pseudonymKey);
  }
  async reseal(batch: SealedBatch): Promise<void> {
    if (this.batches.has(batch.id)) this.batches.set(batch.id, batch.sealed);
  }
  async reveal(keys: readonly string[]): Promise<SharedAnswer<SharedHolder | undefined>> {
    const answers = keys.map((k) => {
      const held = this.holders.get(k);
      return held ? { ref: held.ref, valueKey: held.valueKey } : undefined;
    });
    return { answers, batches: this.#with(answers.map((a) => a?.ref)) };
  }
}
