/**
 * TokenVault: reversible, format-preserving pseudonyms.
 *
 * A pseudonym is derived as format(HMAC(token key, namespace | entity | attempt | value)), so
 * the same key, namespace, entity and value give the same pseudonym in every process. The
 * vault remembers each mapping so it can reverse it, detects collisions inside a namespace,
 * forgets unused mappings after a TTL, and persists itself to an encrypted file.
 */
import { existsSync } from 'node:fs';
import { FORMAT_ATTEMPTS, leftAlone, MAX_ATTEMPTS } from './attempts.js';
import { claimHeld, type HeldShare } from './claim-held.js';
import { detokenizeTextWith } from './detokenize-text.js';
import { VaultConfigError, VaultFormatError } from './errors.js';
import { parseVaultExport, VAULT_FORMAT } from './export-document.js';
import type { FormatContext } from './format/context.js';
import { formatterFor } from './format/dispatch.js';
import { formatGeneric } from './format/simple.js';
import { type DerivationSource, deriveHeld } from './held-derivation.js';
import { IpPermuter } from './ip/permutation.js';
import { IssueContext, SEP } from './issue-context.js';
import { deriveVaultKeys, type VaultKeys } from './keys.js';
import { readVaultFile, writeVaultFile } from './persistence.js';
import { VaultSealer } from './sealer.js';
import {
  BatchReader,
  CLAIM_PART,
  type ClaimEntry,
  type ClaimedPart,
  claimPart,
  pseudonymKeys,
  type SharedClock,
  type SharedUse,
  type SharedVaultStore,
} from './shared-store.js';
import { registerForExitSave, unregisterForExitSave } from './shutdown.js';
import { NamespaceStore, type StoredEntry } from './store.js';
import type {
  ImportOptions,
  NamespaceOption,
  TokenVaultOptions,
  VaultCounters,
  VaultEntry,
  VaultExport,
  VaultExportEntry,
  VaultScope,
  VaultStats,
} from './types.js';

export const GLOBAL_NAMESPACE = 'global';
export { FORMAT_ATTEMPTS, MAX_ATTEMPTS };

export interface PseudonymizeOptions extends NamespaceOption {}

function zeroCounters(): VaultCounters {
  return {
    issued: 0,
    reused: 0,
    detokenized: 0,
    misses: 0,
    collisions: 0,
    fallbacks: 0,
    expired: 0,
    imported: 0,
    saves: 0,
    loads: 0,
  };
}

export class TokenVault {
  readonly scope: VaultScope;
  readonly ttlSeconds: number | null;
  readonly path: string | null;
  readonly autosave: boolean;
  readonly encrypt: boolean;

  private readonly keys: VaultKeys;
  private readonly clock: () => number;
  /** Clock reading at creation; entry times are stored relative to it. */
  private readonly epoch: number;
  private readonly ttlMs: number | null;
  private readonly spaces = new Map<string, NamespaceStore>();
  private readonly permuters = new Map<string, IpPermuter>();
  private readonly contexts = new Map<string, IssueContext[]>();
  private readonly counters: VaultCounters = zeroCounters();
  private changed = false;
  private issuedSince = 0;
  /** Set by shareWith: issued mappings and missed pseudonyms are kept for the next sync. */
  private sharing = false;
  private readonly unclaimed = new Set<StoredEntry>();
  /** Set by shareWith(store): full parts of unclaimed mappings are claimed while the pass goes on. */
  private earlyStore: SharedVaultStore | undefined;
  /** Parts claimed before the sync that settles them, with the mappings each holds. */
  private inFlight: { pending: StoredEntry[]; claimed: Promise<ClaimedPart> }[] = [];
  /**
   * Claims a sync sent and has not settled yet, whichever sync sent them: another pass on this
   * vault may have used their mappings since, so its sync waits for them too (see syncShared).
   */
  private readonly settling = new Set<Promise<ClaimedPart>>();
  /** Settlements that lost a claim or failed, ever: a sync that saw this move reports a change. */
  private settledBadly = 0;
  /**
   * While sharing, per unsettled mapping: when it was issued (see passMark), the candidates its
   * value passed over (collisions here), and whether its pseudonym was built from other mappings (ARNs).
   */
  private readonly unsettled = new Map<StoredEntry, { at: number; passed?: string[]; built: boolean }>();
  private issueCount = 0;
  private readonly missed = new Map<string, { namespace: string; pseudonym: string }>();
  /** Pseudonyms derived as part of another (ctx.sub): tells issue() a pseudonym was built. */
  private subCalls = 0;
  /**
   * Shared with a TTL: mappings used since the store last heard of their use, and the oldest use
   * the store holds among them (see {@link syncShared} for when they are told).
   */
  private readonly untold = new Set<StoredEntry>();
  private oldestTold = Number.POSITIVE_INFINITY;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  /** Same as `new TokenVault(options)`. */
  static create(options: TokenVaultOptions = {}): TokenVault {
    return new TokenVault(options);
  }

  constructor(options: TokenVaultOptions = {}) {
    const ttl = options.ttlSeconds ?? null;
    if (ttl !== null && !(Number.isFinite(ttl) && ttl > 0)) {
      throw new VaultConfigError('Vault ttlSeconds must be a positive number or null', {
        data: { field: 'ttlSeconds' },
      });
    }
    const scope = options.scope ?? 'global';
    if (scope !== 'global' && scope !== 'principal') {
      throw new VaultConfigError('Vault scope must be global or principal', { data: { field: 'scope' } });
    }
    this.scope = scope;
    this.ttlSeconds = ttl;
    this.ttlMs = ttl === null ? null : ttl * 1000;
    this.path = options.path ?? null;
    this.autosave = options.autosave ?? false;
    this.encrypt = options.encrypt ?? true;
    this.clock = options.clock ?? Date.now;
    this.epoch = Math.floor(this.clock());
    this.keys = deriveVaultKeys(options);
    if (this.path !== null) {
      if (existsSync(this.path)) this.load();
      if (options.saveOnExit === true) registerForExitSave(this);
    }
  }

  #sealer: VaultSealer | undefined;

  /** Seals what leaves the process under this vault's key (the stores replicas share). */
  get sealer(): VaultSealer {
    this.#sealer ??= new VaultSealer(this.keys);
    return this.#sealer;
  }

  /** 12 hex characters identifying the key without revealing it. */
  get keyId(): string {
    return this.keys.keyId;
  }

  get keySource(): VaultStats['key_source'] {
    return this.keys.source;
  }

  /** True when mappings changed since the last save or load. */
  get dirty(): boolean {
    return this.changed;
  }

  /** Pseudonyms issued since the last save or load. */
  get issuedSinceSave(): number {
    return this.issuedSince;
  }

  /** `global`, or `p:<principal id>` under principal scope. */
  namespaceFor(principalId?: string | null): string {
    if (this.scope === 'global') return GLOBAL_NAMESPACE;
    return `p:${principalId ?? 'anonymous'}`;
  }

  // ---- pseudonyms -------------------------------------------------------------------------

  /**
   * The pseudonym of `value` as `entity`, created on first use. Values a format leaves alone
   * (special IPs, `*`, empty) come back unchanged and are not stored.
   */
  pseudonymize(value: string, entity: string, options: PseudonymizeOptions = {}): string {
    const namespace = options.namespace ?? GLOBAL_NAMESPACE;
    const store = this.space(namespace);
    const now = this.now();
    const existing = store.get(entity, value);
    if (existing) {
      if (!this.isExpired(existing, now)) {
        this.touch(existing, now);
        this.counters.reused++;
        return existing.pseudonym;
      }
      this.expire(store, existing);
    }
    if (leftAlone(value)) return value;
    return this.issue(store, namespace, value, entity, now);
  }

  /** Alias of {@link pseudonymize}. */
  tokenize(value: string, entity: string, options: PseudonymizeOptions = {}): string {
    return this.pseudonymize(value, entity, options);
  }

  private issue(
    store: NamespaceStore,
    namespace: string,
    value: string,
    entity: string,
    now: number,
  ): string {
    const format = formatterFor(entity);
    const subsBefore = this.subCalls;
    let passed: string[] | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const ctx = this.context(namespace, attempt);
      const generic = attempt >= FORMAT_ATTEMPTS;
      const pseudonym = generic ? formatGeneric(value, entity, ctx) : format(value, entity, ctx);
      // null: the format leaves this value alone. A pseudonym equal to its own value (a digit
      // string can map to itself) is still registered, so no other value can be given it.
      if (pseudonym === null) return value;
      const holder = store.reverse.get(pseudonym);
      if (holder && holder.real !== value) {
        if (this.isExpired(holder, now)) this.expire(store, holder);
        else {
          this.counters.collisions++;
          // Another process may hold this value under the candidate this one holds for another.
          if (this.sharing) {
            passed ??= [];
            passed.push(pseudonym);
          }
          continue;
        }
      }
      if (generic) this.counters.fallbacks++;
      const entry: StoredEntry = { namespace, entity, real: value, pseudonym, created: now, lastUsed: now };
      store.insertNew(entry);
      if (this.sharing) {
        // Its claim tells the store this use (at the claim's time, which is no earlier).
        if (this.ttlMs !== null) entry.recorded = now;
        this.unsettled.set(entry, {
          at: this.issueCount++,
          ...(passed ? { passed } : {}),
          built: this.subCalls !== subsBefore,
        });
        this.unclaimed.add(entry);
        if (this.earlyStore && this.unclaimed.size >= CLAIM_PART) this.sendPart(this.earlyStore);
      }
      this.counters.issued++;
      this.issuedSince++;
      this.changed = true;
      return pseudonym;
    }
    // 64 clashes in a row cannot happen with the 10-hex generic format unless the vault was
    // filled on purpose; refuse rather than hand out an ambiguous pseudonym.
    throw new VaultFormatError('Could not derive a unique pseudonym', { data: { entity, namespace } });
  }

  /** Contexts are immutable, so one per (namespace, attempt) serves every derivation. */
  private context(namespace: string, attempt: number): FormatContext {
    let list = this.contexts.get(namespace);
    if (!list) {
      list = [];
      this.contexts.set(namespace, list);
    }
    let ctx = list[attempt];
    if (!ctx) {
      ctx = new IssueContext(this.subOf, this.keys.token, this.permuterFor, namespace, attempt);
      list[attempt] = ctx;
    }
    return ctx;
  }

  /** A part of a pseudonym being built (an ARN's account), counted so the whole is known as built. */
  private readonly subOf = (value: string, entity: string, namespace: string): string => {
    this.subCalls++;
    return this.pseudonymize(value, entity, { namespace });
  };

  private readonly permuterFor = (namespace: string, width: 4 | 16): IpPermuter => {
    const id = `${width}${SEP}${namespace}`;
    let p = this.permuters.get(id);
    if (!p) {
      p = new IpPermuter(Buffer.from(this.keys.ip.hex(`ipv${width === 4 ? 4 : 6}${SEP}${namespace}`), 'hex'));
      this.permuters.set(id, p);
    }
    return p;
  };

  /** A keyed HMAC-SHA256 of the value (64 hex), for the irreversible `hash` strategy. */
  hashValue(value: string): string {
    return this.keys.hash.hex(value);
  }

  // ---- reversal ---------------------------------------------------------------------------

  /** The real value behind one exact pseudonym, or undefined (unknown, expired, other namespace). */
  detokenize(token: string, options: NamespaceOption = {}): string | undefined {
    return this.resolve(token, options.namespace ?? GLOBAL_NAMESPACE)?.real;
  }

  /** The mapping behind one exact pseudonym (entity, real value, times), or undefined. */
  entry(token: string, options: NamespaceOption = {}): VaultEntry | undefined {
    const e = this.resolve(token, options.namespace ?? GLOBAL_NAMESPACE);
    return e ? this.toEntry(e) : undefined;
  }

  /** The existing pseudonym of a value, without creating one. */
  lookup(value: string, entity: string, options: NamespaceOption = {}): string | undefined {
    const store = this.spaces.get(options.namespace ?? GLOBAL_NAMESPACE);
    const e = store?.get(entity, value);
    if (!e) return undefined;
    if (this.isExpired(e, this.now())) {
      this.expire(store!, e);
      return undefined;
    }
    return e.pseudonym;
  }

  /** Replace every pseudonym found in free text (section 13.6). */
  detokenizeText(text: string, options: NamespaceOption = {}): string {
    const namespace = options.namespace ?? GLOBAL_NAMESPACE;
    // A shared vault may know pseudonyms this process has not seen yet: scan even when empty.
    if (!this.sharing && !this.spaces.get(namespace)?.size) return text;
    // Scanning tries many candidate tokens; only real reversals are counted.
    return detokenizeTextWith(text, (token) => this.resolve(token, namespace, false)?.real);
  }

  private resolve(token: string, namespace: string, countMiss = true): StoredEntry | undefined {
    const store = this.spaces.get(namespace);
    const e = store?.reverse.get(token);
    if (!e) {
      if (countMiss) this.counters.misses++;
      if (this.sharing) this.missed.set(`${namespace}\u0000${token}`, { namespace, pseudonym: token });
      return undefined;
    }
    const now = this.now();
    if (this.isExpired(e, now)) {
      this.expire(store!, e);
      if (countMiss) this.counters.misses++;
      // Unused here for the TTL, but another process may have used it since: the store decides
      // (it reveals a mapping some process used within the TTL and drops one none did).
      if (this.sharing) this.missed.set(`${namespace}\u0000${token}`, { namespace, pseudonym: token });
      return undefined;
    }
    this.touch(e, now);
    this.counters.detokenized++;
    return e;
  }

  // ---- sharing between processes -----------------------------------------------------------

  /**
   * From now on, remember the mappings this vault issues and the pseudonyms it fails to reveal,
   * so {@link syncShared} can settle them with a store shared by several processes. Given the
   * store, every CLAIM_PART mappings issued are claimed at once, while the pass goes on (the
   * first strict page over new values issues thousands, and the store's work then overlaps the
   * pass's instead of following it); the sync still waits for them, so nothing is used unshared.
   */
  shareWith(store?: SharedVaultStore): void {
    this.sharing = true;
    this.earlyStore = store;
    if (store?.touch && this.ttlMs !== null && this.sweepTimer === undefined) {
      // Every quarter TTL: a use left untold at a sync is told well before the store's record of
      // the mapping runs out (see syncShared), and what expired leaves the store even when no
      // pass asks for it. A failed sweep keeps its uses for the next one; a sync reports failures.
      // The timer holds the vault weakly: a vault dropped without close() is still collected.
      const every = Math.min(30_000, Math.max(100, this.ttlMs / 4));
      const vault = new WeakRef(this);
      const timer = setInterval(() => {
        const live = vault.deref();
        if (live) live.sweepShared(store).catch(() => undefined);
        else clearInterval(timer);
      }, every);
      timer.unref();
      this.sweepTimer = timer;
    }
  }

  /** Under a TTL, what the store is told with each call (now by this vault's clock). */
  private sharedClock(uses?: readonly SharedUse[]): SharedClock | undefined {
    if (this.ttlMs === null) return undefined;
    const clock: SharedClock = { now: this.now() + this.epoch, ttlMs: this.ttlMs };
    if (uses) clock.uses = uses;
    return clock;
  }

  private noteUse(e: StoredEntry): void {
    if (this.untold.has(e)) return;
    this.untold.add(e);
    const recorded = e.recorded ?? e.created;
    if (recorded < this.oldestTold) this.oldestTold = recorded;
  }

  /**
   * The untold uses of mappings still held whose recorded use is at least `minAge` ms old, taken
   * out to be told ({@link settleUses} after); the others stay untold.
   */
  private takeUses(minAge = 0): { told: StoredEntry[]; uses: SharedUse[] } {
    const told: StoredEntry[] = [];
    const now = this.now();
    if (now - this.oldestTold < minAge) return { told, uses: [] };
    let oldest = Number.POSITIVE_INFINITY;
    for (const e of this.untold) {
      const recorded = e.recorded ?? e.created;
      if (now - recorded < minAge) {
        if (recorded < oldest) oldest = recorded;
        continue;
      }
      this.untold.delete(e);
      if (this.spaces.get(e.namespace)?.get(e.entity, e.real) === e) told.push(e);
    }
    this.oldestTold = oldest;
    if (told.length === 0) return { told, uses: [] };
    const keys = pseudonymKeys(this.sealer, told);
    return { told, uses: told.map((e, i) => ({ key: keys[i] as string, at: e.lastUsed + this.epoch })) };
  }

  /** After the store took the uses (or failed to: they are told again later). */
  private settleUses(told: readonly StoredEntry[], uses: readonly SharedUse[], ok: boolean): void {
    if (!ok) {
      for (const e of told) this.noteUse(e);
      return;
    }
    told.forEach((e, i) => {
      const at = (uses[i] as SharedUse).at - this.epoch;
      if ((e.recorded ?? Number.NEGATIVE_INFINITY) < at) e.recorded = at;
    });
  }

  /**
   * Under a TTL with a shared store: tell the store the uses not told yet and let it drop the
   * mappings no process used for the TTL (a bounded number per call). shareWith(store) runs it
   * every quarter TTL (at most 30 s apart); call it to settle at once. Resolves to how many the
   * store dropped; 0 without a TTL or a store that keeps no use times.
   */
  async sweepShared(store: SharedVaultStore): Promise<number> {
    if (this.ttlMs === null || !store.touch) return 0;
    const { told, uses } = this.takeUses();
    try {
      const dropped = await store.touch(this.sharedClock(uses) as SharedClock);
      this.settleUses(told, uses, true);
      return dropped;
    } catch (error) {
      this.settleUses(told, uses, false);
      throw error;
    }
  }

  /** Claim up to CLAIM_PART unclaimed mappings now, as one part the next sync awaits. */
  private sendPart(store: SharedVaultStore): void {
    const pending: StoredEntry[] = [];
    for (const e of this.unclaimed) {
      pending.push(e);
      if (pending.length === CLAIM_PART) break;
    }
    for (const e of pending) this.unclaimed.delete(e);
    this.inFlight.push({
      pending,
      claimed: claimPart(
        this.sealer,
        store,
        pending.map((e) => this.toClaim(e)),
        this.sharedClock(),
      ),
    });
  }

  /**
   * Settle with the shared store: fetch the mappings of pseudonyms this process missed (one
   * round trip), and claim the mappings it issued (the parts already sent during the pass, and
   * the rest in parts sent at once and awaited together). A claim another process won is
   * replaced by the winner (the value's mapping under a candidate this process passed over, or
   * the pseudonym's holder, so the next derivation moves past it), and the pseudonyms built from
   * other mappings in that sync are dropped, to be built again. Also waits for every claim
   * another sync on this vault sent and has not settled (a pass may reuse a mapping another pass
   * issued). Returns true when the local mappings changed in a way that makes a pass worth running
   * again, including when any of those claims lost or failed. If the store fails, this sync's
   * mappings are withdrawn and it rejects, so nothing this process issued is used without being
   * shared.
   */
  async syncShared(store: SharedVaultStore): Promise<boolean> {
    let changed = false;
    // Taken before the first await: what is unsettled now may settle during the reveal.
    const outstanding = [...this.settling];
    const badBefore = this.settledBadly;
    // The store sees keyed digests and sealed batches only (see shared-store.ts).
    const sealer = this.sealer;
    const reader = new BatchReader(sealer);
    if (this.missed.size > 0) {
      const keys = [...this.missed.values()];
      this.missed.clear();
      const pseudonyms = pseudonymKeys(sealer, keys);
      // Under a TTL the untold uses of mappings the store heard of a quarter TTL ago or more ride
      // along (no round trip of their own); the rest wait for the sweep, which tells them well
      // in time, so a warm page does not send thousands of fresh uses with every reveal.
      const { told, uses } = this.ttlMs === null ? { told: [], uses: [] } : this.takeUses(this.ttlMs / 4);
      const clock = this.sharedClock(uses);
      let found: Awaited<ReturnType<SharedVaultStore['reveal']>>;
      try {
        found = clock ? await store.reveal(pseudonyms, clock) : await store.reveal(pseudonyms);
      } catch (error) {
        this.settleUses(told, uses, false);
        throw error;
      }
      this.settleUses(told, uses, true);
      // Only rows that are the pseudonyms asked for, under the value key filed with them.
      for (const entry of reader.revealed(keys, found)) {
        // A reveal under a clock is a use of the mapping, now, on every process.
        if (entry && clock) entry.lastUsed = clock.now / 1000;
        if (entry && this.adopt(entry)) changed = true;
      }
    }
    // What is left, in parts; all of them then awaited together (each part answers on its own).
    while (this.unclaimed.size > 0) this.sendPart(store);
    const parts = this.inFlight;
    this.inFlight = [];
    const own = parts.length > 0 ? this.settle(parts, store) : undefined;
    // Every claim not settled yet, whichever sync sent it: this pass may have used its mappings
    // (a mapping another pass issued and its sync took), so it is settled only once they are; and
    // one that lost or failed (counted by settledBadly even when it settled during the reveal
    // above) changed what this pass would produce.
    const waits = new Set([...outstanding, ...this.settling]);
    if (waits.size > 0) await Promise.all(waits);
    if (own) {
      const settled = await own;
      if (!settled.ok) throw settled.reason;
    }
    // After the claims are settled, so a failure here leaves none of them half done.
    await this.tellUsesDue(store);
    return changed || this.settledBadly !== badBefore;
  }

  /**
   * Await the answers of claimed parts and take them in: a claim another process won is replaced
   * by the winner, and the pseudonyms built from other mappings in these parts are dropped, to be
   * built again. If the store failed, every mapping of the parts is withdrawn, so nothing this
   * process issued is used without being shared. Resolves to the failed part, or an `ok` one.
   */
  private settle(
    parts: readonly { pending: StoredEntry[]; claimed: Promise<ClaimedPart> }[],
    store: SharedVaultStore,
  ): Promise<ClaimedPart> {
    const settled = (async (): Promise<ClaimedPart> => {
      const answered = await Promise.all(parts.map((p) => p.claimed));
      const pending = parts.flatMap((p) => p.pending);
      const failed = answered.find((a) => !a.ok);
      if (failed && !failed.ok) {
        for (const e of pending) this.withdraw(e);
        this.forgetUnsettled(pending);
        this.settledBadly++;
        return failed;
      }
      const holders = answered.flatMap((a) => (a.ok ? a.holders : []));
      let lost = false;
      holders.forEach((holder, i) => {
        if (!holder) return;
        this.withdraw(pending[i] as StoredEntry);
        this.adopt(holder);
        this.counters.collisions++;
        lost = true;
      });
      // A pseudonym built in these parts may rest on a mapping that just lost (an ARN on its
      // account's pseudonym): drop them all, so the rerun builds them again on the winners, and
      // unfile those this process filed, or their values would reveal under two pseudonyms.
      // Before this settles: a pass that used them waits for it, so none has left the process.
      if (lost) {
        const filed = answered.flatMap((a) => (a.ok ? a.filed : []));
        const unfile: { pseudonymKey: string; ref: string }[] = [];
        pending.forEach((e, i) => {
          if (!this.unsettled.get(e)?.built) return;
          if (!holders[i] && filed[i]) unfile.push(filed[i] as { pseudonymKey: string; ref: string });
          this.withdraw(e);
        });
        this.settledBadly++;
        if (unfile.length > 0 && store.withdraw) {
          try {
            await store.withdraw(unfile);
          } catch (reason) {
            this.forgetUnsettled(pending);
            return { ok: false, reason };
          }
        }
      }
      this.forgetUnsettled(pending);
      return { ok: true, holders: [], filed: [] };
    })().catch((reason: unknown): ClaimedPart => {
      // Taking the answers in threw: this sync fails as on a store failure, and the others that
      // wait for it see a settlement gone wrong rather than an unheard rejection.
      this.settledBadly++;
      return { ok: false, reason };
    });
    this.settling.add(settled);
    void settled.then(() => this.settling.delete(settled));
    return settled;
  }

  private forgetUnsettled(entries: readonly StoredEntry[]): void {
    for (const e of entries) this.unsettled.delete(e);
  }

  /**
   * Claim in the shared store the mappings this vault holds without having issued them since it
   * began sharing: those loaded from its file (or imported). Call it once, after shareWith and
   * before the first pass (a policy's pipelines wait for it). The store's mappings win where they
   * differ: this vault takes them, and forgets a held mapping a pass would no longer issue as it
   * is (see claim-held.ts). Rejects with the store's error, having claimed a part or none; the
   * claim can be made again. What changed makes the vault dirty, so its next save writes it.
   */
  async shareHeld(store: SharedVaultStore): Promise<HeldShare> {
    const issued = new Set<StoredEntry>(this.unclaimed);
    for (const part of this.inFlight) for (const e of part.pending) issued.add(e);
    const now = this.now();
    const held: StoredEntry[] = [];
    for (const space of this.spaces.values())
      for (const e of space.entries()) if (!issued.has(e) && !this.isExpired(e, now)) held.push(e);
    const source: DerivationSource = {
      context: (namespace, attempt) => this.context(namespace, attempt),
      mappingOf: (namespace, entity, value) => this.live(this.spaces.get(namespace)?.get(entity, value), now),
      holderOf: (namespace, pseudonym) => this.live(this.spaces.get(namespace)?.reverse.get(pseudonym), now),
    };
    return claimHeld(
      {
        sealer: this.sealer,
        holds: (e) => this.spaces.get(e.namespace)?.get(e.entity, e.real) === e,
        derive: (e) => deriveHeld(e, source),
        claimOf: (e, passed) => this.toClaim(e, passed),
        forget: (e) => {
          const space = this.spaces.get(e.namespace);
          if (space?.get(e.entity, e.real) !== e) return;
          space.remove(e);
          this.changed = true;
        },
        adopt: (entry) => {
          if (this.adopt(entry)) this.changed = true;
        },
        // The store records a claimed file's mappings as used when the claim is made.
        clock: () => this.sharedClock(),
      },
      store,
      held,
    );
  }

  /**
   * Under a TTL: tell the store the untold uses when one of them is of a mapping whose use the
   * store last heard of half a TTL ago or more. Uses of mappings it heard of more recently wait
   * for a reveal to ride on or the sweep (a quarter TTL at most), still well before the store's
   * record runs out; so a warm page, which only reuses, costs no round trip of its own.
   */
  private async tellUsesDue(store: SharedVaultStore): Promise<void> {
    if (this.ttlMs === null || this.untold.size === 0 || !store.touch) return;
    if (this.now() - this.oldestTold < this.ttlMs / 2) return;
    await this.sweepShared(store);
  }

  private live(e: StoredEntry | undefined, now: number): StoredEntry | undefined {
    return e && !this.isExpired(e, now) ? e : undefined;
  }

  /**
   * A mark of the mappings issued so far, for {@link discardUnclaimed}: take it before a pass
   * runs (a pass runs synchronously, so what is issued between the mark and its end is its own).
   */
  passMark(): number {
    return this.issueCount;
  }

  /**
   * Drop the mappings a failed pass issued and no sync settled yet: those issued since `mark`
   * (from {@link passMark}), or, without one, every unsettled mapping (only right when no other
   * pass shares the vault). Another pass's mappings stay: its sync claims them and it returns them.
   */
  discardUnclaimed(mark?: number): void {
    const own = (e: StoredEntry) => mark === undefined || (this.unsettled.get(e)?.at ?? -1) >= mark;
    const dropped: StoredEntry[] = [];
    for (const e of this.unclaimed)
      if (own(e)) {
        dropped.push(e);
        this.unclaimed.delete(e);
      }
    // Parts already sent may land in the store; like a claim whose answer was lost, that is
    // harmless. The part is still settled by the next sync, for the other mappings it holds.
    for (const part of this.inFlight) for (const e of part.pending) if (own(e)) dropped.push(e);
    for (const e of dropped) this.withdraw(e);
    this.forgetUnsettled(dropped);
    if (mark === undefined) {
      this.inFlight = [];
      this.missed.clear();
    }
  }

  private withdraw(e: StoredEntry): void {
    const store = this.spaces.get(e.namespace);
    if (store?.get(e.entity, e.real) === e) {
      store.remove(e);
      this.counters.issued--;
      this.issuedSince = Math.max(0, this.issuedSince - 1);
    }
  }

  /** Take a mapping the shared store holds; false when this process already had it. */
  private adopt(entry: VaultEntry): boolean {
    const store = this.space(entry.namespace);
    const mine = store.get(entry.entity, entry.real);
    if (mine && mine.pseudonym === entry.pseudonym) return false;
    const now = this.now();
    const adopted: StoredEntry = {
      namespace: entry.namespace,
      entity: entry.entity,
      real: entry.real,
      pseudonym: entry.pseudonym,
      created: Math.round(entry.created * 1000) - this.epoch,
      lastUsed: now,
    };
    // Shared under a TTL, the store's last use over every process is the mapping's (claimPart and
    // syncShared set it), so this process expires it when the store does, not later.
    if (this.sharing && this.ttlMs !== null) {
      adopted.lastUsed = Math.min(now, Math.round(entry.lastUsed * 1000) - this.epoch);
      adopted.recorded = adopted.lastUsed;
    }
    const holder = store.reverse.get(entry.pseudonym);
    if (holder && holder.real !== entry.real) store.remove(holder);
    store.add(adopted);
    this.counters.imported++;
    return true;
  }

  // ---- TTL --------------------------------------------------------------------------------

  /** Integer milliseconds since the vault's epoch. */
  private now(): number {
    return Math.floor(this.clock()) - this.epoch;
  }

  /** Unix seconds of a vault-relative time. */
  private unixSeconds(t: number): number {
    return (t + this.epoch) / 1000;
  }

  private toEntry(e: StoredEntry): VaultEntry {
    return {
      namespace: e.namespace,
      entity: e.entity,
      real: e.real,
      pseudonym: e.pseudonym,
      created: this.unixSeconds(e.created),
      lastUsed: this.unixSeconds(e.lastUsed),
    };
  }

  /** `e` as claimed, with the candidates its value passed over (an issued mapping's, by default). */
  private toClaim(
    e: StoredEntry,
    passed: readonly string[] | undefined = this.unsettled.get(e)?.passed,
  ): ClaimEntry {
    const claim: ClaimEntry = this.toEntry(e);
    if (passed && passed.length > 0) claim.passed = passed;
    return claim;
  }

  private isExpired(e: StoredEntry, now: number): boolean {
    return this.ttlMs !== null && now - e.lastUsed > this.ttlMs;
  }

  private touch(e: StoredEntry, now: number): void {
    if (e.lastUsed === now) return;
    e.lastUsed = now;
    // Use times only matter to a TTL; without one they do not make the vault worth saving.
    if (this.ttlMs !== null) {
      this.changed = true;
      if (this.sharing) this.noteUse(e);
    }
  }

  private expire(store: NamespaceStore, e: StoredEntry): void {
    store.remove(e);
    this.counters.expired++;
    this.changed = true;
  }

  /** Drop every mapping whose TTL ran out; returns how many. */
  purgeExpired(): number {
    if (this.ttlMs === null) return 0;
    const now = this.now();
    let n = 0;
    for (const store of this.spaces.values()) {
      for (const e of [...store.entries()]) {
        if (this.isExpired(e, now)) {
          this.expire(store, e);
          n++;
        }
      }
    }
    return n;
  }

  // ---- bulk -------------------------------------------------------------------------------

  private space(namespace: string): NamespaceStore {
    let s = this.spaces.get(namespace);
    if (!s) {
      s = new NamespaceStore();
      this.spaces.set(namespace, s);
    }
    return s;
  }

  /** Every live mapping (or one namespace's), real values included. Treat it like the data itself. */
  export(namespace?: string): VaultExport {
    const entries: VaultExportEntry[] = [];
    const now = this.now();
    for (const [ns, store] of this.spaces) {
      if (namespace !== undefined && ns !== namespace) continue;
      for (const e of store.entries()) {
        // Expired mappings are forgotten already as far as anyone can tell; never write them out.
        if (this.isExpired(e, now)) continue;
        entries.push([
          e.namespace,
          e.entity,
          e.real,
          e.pseudonym,
          this.unixSeconds(e.created),
          this.unixSeconds(e.lastUsed),
        ]);
      }
    }
    return { format: VAULT_FORMAT, key_id: this.keys.keyId, entries };
  }

  /**
   * Load an export (possibly made under another key). Existing mappings of the same value, or
   * of the same pseudonym for another value, win unless `overwrite`. Returns the number added.
   * The whole document is validated before anything is added.
   */
  importMappings(doc: unknown, options: ImportOptions = {}): number {
    const parsed = parseVaultExport(doc);
    const overwrite = options.overwrite ?? false;
    let added = 0;
    let store: NamespaceStore | undefined;
    let storeNs = '';
    for (const [namespace, entity, real, pseudonym, created, lastUsed] of parsed.entries) {
      if (store === undefined || namespace !== storeNs) {
        store = this.space(namespace);
        storeNs = namespace;
      }
      const same = store.get(entity, real);
      if (same && same.pseudonym === pseudonym) continue;
      const holder = store.reverse.get(pseudonym);
      const clash = holder !== undefined && holder.real !== real;
      if ((same || clash) && !overwrite) continue;
      if (clash) store.remove(holder!);
      const entry = {
        namespace,
        entity,
        real,
        pseudonym,
        created: Math.round(created * 1000) - this.epoch,
        lastUsed: Math.round(lastUsed * 1000) - this.epoch,
      };
      // The common case on load: nothing known yet, so skip add's checks.
      if (same) store.add(entry);
      else store.insertNew(entry);
      added++;
    }
    if (added > 0) {
      this.counters.imported += added;
      this.changed = true;
    }
    return added;
  }

  /** Forget every mapping, or one namespace's; returns how many. */
  clear(namespace?: string): number {
    let n = 0;
    for (const [ns, store] of [...this.spaces]) {
      if (namespace !== undefined && ns !== namespace) continue;
      n += store.size;
      this.spaces.delete(ns);
    }
    if (n > 0) this.changed = true;
    return n;
  }

  stats(): VaultStats {
    const namespaces: Record<string, number> = {};
    const entities: Record<string, number> = {};
    let entries = 0;
    for (const [ns, store] of this.spaces) {
      if (store.size === 0) continue;
      namespaces[ns] = store.size;
      entries += store.size;
      for (const [entity, map] of store.forward) entities[entity] = (entities[entity] ?? 0) + map.size;
    }
    return {
      key_source: this.keys.source,
      key_id: this.keys.keyId,
      scope: this.scope,
      ttl_seconds: this.ttlSeconds,
      path: this.path,
      encrypt: this.encrypt,
      autosave: this.autosave,
      entries,
      namespaces,
      entities,
      dirty: this.changed,
      issued_since_save: this.issuedSince,
      counters: { ...this.counters },
    };
  }

  // ---- persistence ------------------------------------------------------------------------

  /**
   * Write the vault atomically (mode 0600) to `path` or the configured path. Returns the path
   * written, or null when there is none. Saving to the configured path clears `dirty`.
   */
  save(path?: string): string | null {
    const target = path ?? this.path;
    if (target === null) return null;
    writeVaultFile(target, this.export(), this.encrypt ? this.keys : null);
    this.counters.saves++;
    if (target === this.path) {
      this.changed = false;
      this.issuedSince = 0;
    }
    return target;
  }

  /**
   * Merge the vault file into memory (mappings already present win). Throws
   * VaultAuthenticationError for a wrong key or a modified file, loading nothing.
   * Returns the number of mappings added.
   */
  load(path?: string): number {
    const source = path ?? this.path;
    if (source === null) return 0;
    const doc = readVaultFile(source, this.keys, this.encrypt);
    const wasDirty = this.changed;
    const added = this.importMappings(doc);
    this.counters.loads++;
    // What was just read from the file is already in it.
    if (source === this.path) this.changed = wasDirty;
    return added;
  }

  /** Save when `autosave` is on, a path is set and something changed; true when it saved. */
  autosaveIfNeeded(): boolean {
    if (!this.autosave || this.path === null || !this.changed) return false;
    this.save();
    return true;
  }

  /** Save if changed and stop saving at process exit. */
  close(): void {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    if (this.path !== null && this.changed) this.save();
    unregisterForExitSave(this);
  }
}
