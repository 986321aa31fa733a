/**
 * The in-memory maps of one namespace: forward (entity -> real value -> entry) and reverse
 * (pseudonym -> entry). Entry times are integer milliseconds relative to the vault's own
 * epoch (its creation), so for the first 24 days they are small integers V8 stores inline
 * rather than boxed doubles; exports convert them back to Unix seconds.
 */

export interface StoredEntry {
  namespace: string;
  entity: string;
  real: string;
  pseudonym: string;
  /** Milliseconds since the vault's epoch. */
  created: number;
  /** Milliseconds since the vault's epoch. */
  lastUsed: number;
  /**
   * Shared with a TTL only: the latest use of this mapping the shared store is known to hold
   * (milliseconds since the vault's epoch). Uses after it are still to be told.
   */
  recorded?: number;
}

export class NamespaceStore {
  readonly forward = new Map<string, Map<string, StoredEntry>>();
  readonly reverse = new Map<string, StoredEntry>();
  size = 0;

  get(entity: string, real: string): StoredEntry | undefined {
    return this.forward.get(entity)?.get(real);
  }

  add(entry: StoredEntry): void {
    // The previous entry first: removing the last of its entity drops the entity's map, which
    // must not be the one the new entry then goes into.
    const previous = this.get(entry.entity, entry.real);
    if (previous) this.remove(previous);
    let byEntity = this.forward.get(entry.entity);
    if (!byEntity) {
      byEntity = new Map();
      this.forward.set(entry.entity, byEntity);
    }
    byEntity.set(entry.real, entry);
    this.size++;
    // Two entities may map one real value to the same pseudonym; the first entry keeps the reverse slot.
    const other = this.reverse.get(entry.pseudonym);
    if (!other || other.real !== entry.real) this.reverse.set(entry.pseudonym, entry);
  }

  /**
   * Add an entry for a value that has no entry of this entity yet (the hot path of issuing):
   * skips the checks `add` makes.
   */
  insertNew(entry: StoredEntry): void {
    let byEntity = this.forward.get(entry.entity);
    if (!byEntity) {
      byEntity = new Map();
      this.forward.set(entry.entity, byEntity);
    }
    byEntity.set(entry.real, entry);
    this.size++;
    if (!this.reverse.has(entry.pseudonym)) this.reverse.set(entry.pseudonym, entry);
  }

  remove(entry: StoredEntry): void {
    const byEntity = this.forward.get(entry.entity);
    if (byEntity?.get(entry.real) === entry) {
      byEntity.delete(entry.real);
      this.size--;
      if (byEntity.size === 0) this.forward.delete(entry.entity);
    }
    if (this.reverse.get(entry.pseudonym) === entry) {
      this.reverse.delete(entry.pseudonym);
      // Another entity's entry for the same real value may still own this pseudonym.
      for (const map of this.forward.values()) {
        const alt = map.get(entry.real);
        if (alt && alt.pseudonym === entry.pseudonym) {
          this.reverse.set(alt.pseudonym, alt);
          break;
        }
      }
    }
  }

  *entries(): IterableIterator<StoredEntry> {
    for (const map of this.forward.values()) yield* map.values();
  }
}
