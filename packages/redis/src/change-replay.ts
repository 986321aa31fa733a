/**
 * Catching up on the changes a replica missed while its pub/sub connection to Redis was down.
 *
 * Pub/sub keeps nothing, so each announcement is also numbered and kept (change-fanout.ts):
 * `<prefix>changes:head` (a hash: `e` the epoch, a random id chosen by the first announcement
 * after Redis lost its data; `s` the number of the last change) and `<prefix>changes:log` (a
 * sorted set of the last `kept` sealed changes, scored by their number). The channel carries
 * `<epoch> <number> <sealed change>`, and the sealed change names its epoch and number too, so
 * `open` refuses one published or kept under any other: nothing but the announcing replica's
 * seal decides where a change stands.
 *
 * A `ChangeCursor` remembers the last number this replica applied. A change that follows it is
 * applied at once; one that comes after a gap (messages lost), a change of a new epoch, and every
 * re-subscription after a lost connection make it read what it missed from the log and apply
 * that, in order, before what arrived meanwhile. When more was missed than the log keeps, or
 * Redis lost its data (a new epoch, or a head behind what this replica applied: restarted from
 * an older snapshot, or failed over to a lagging copy), nobody can say what changed: the
 * replica's listeners are told that changes were missed (`missed`), and catch up by assuming
 * that everything they follow changed.
 *
 * Every read settles what was heard before it began: a change the read can account for is
 * applied or dropped as applied; one it cannot is dropped too, since a later read could not
 * account for it either (of another epoch: that epoch is gone, and its changes heard later are
 * ignored without a read; past the head it read: Redis lost it, a miss). Only what arrives during
 * a read can make it read again, so the cursor never reads without something new to read for,
 * and what waits is bounded (past MAX_PENDING it is forgotten and read from the log instead).
 */
import { LuaScript } from './script.js';

// KEYS: head, log. ARGV: the reader's epoch ('' when it knows of none), the last number it
// applied. {epoch ('' when nothing was announced since Redis started empty), last number, then
// "<number> <sealed>" for each kept change after the reader's, in order, when the epochs agree}.
const REPLAY = new LuaScript(`
local epoch = redis.call('HGET', KEYS[1], 'e')
if not epoch then return {'', '0'} end
local out = {epoch, redis.call('HGET', KEYS[1], 's')}
if ARGV[1] ~= '' and ARGV[1] ~= epoch then return out end
for _, entry in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[2], '+inf')) do
  out[#out + 1] = entry
end
return out
`);

/** How often a catch-up that failed (Redis away or slow) is tried again. */
const RETRY_MS = 1_000;

/**
 * Changes heard during one read that wait for it. Past this many the cursor forgets them and
 * reads again: everything it forgot is in the log, so memory stays bounded under a flood.
 */
const MAX_PENDING = 1_000;

/** Epochs this cursor left behind (Redis lost its data), whose changes are ignored when heard. */
const GONE_EPOCHS = 16;

/** A change as the channel carries it: `<epoch> <number> <sealed>`. */
export interface NumberedChange {
  epoch: string;
  seq: number;
  sealed: string;
}

/** Split `<epoch> <number> <rest>`; undefined for anything else. */
export function parseNumbered(text: string): NumberedChange | undefined {
  const first = text.indexOf(' ');
  const second = first < 0 ? -1 : text.indexOf(' ', first + 1);
  if (second < 0) return undefined;
  const seq = Number(text.slice(first + 1, second));
  if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { epoch: text.slice(0, first), seq, sealed: text.slice(second + 1) };
}

export interface ChangeCursorOptions<T> {
  /** Runs a command on the replica's ordinary connection (not the subscriber). */
  run: (script: LuaScript, keys: string[], args: (string | number)[]) => Promise<unknown>;
  head: string;
  log: string;
  /**
   * The change, when it was sealed for this very epoch and number; undefined for anything else
   * (forged, damaged, of another vault key, or moved), which the cursor ignores entirely.
   */
  open: (change: NumberedChange) => T | undefined;
  /** Apply one change. */
  apply: (change: T) => void;
  /** More was missed than can be replayed one by one. */
  missed: () => void;
}

interface Opened<T> {
  epoch: string;
  seq: number;
  change: T;
}

export class ChangeCursor<T> {
  /** Undefined until the head was first read; '' while no change was ever announced. */
  #epoch: string | undefined;
  #seq = 0;
  #gone: string[] = [];
  #catching: Promise<void> | undefined;
  /** A catch-up was asked for while one ran: read once more after its read. */
  #again = false;
  /** Heard on the channel while catching up: applied after what the log returns. */
  #pending: Opened<T>[] = [];
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly options: ChangeCursorOptions<T>) {}

  /** Where this cursor stands: the epoch and number of the last change applied (undefined before the first read). */
  get position(): { epoch: string; seq: number } | undefined {
    return this.#epoch === undefined ? undefined : { epoch: this.#epoch, seq: this.#seq };
  }

  /** A message of the changes channel. */
  heard(text: string): void {
    if (this.#closed) return;
    const heard = this.#open(parseNumbered(text));
    if (!heard || this.#gone.includes(heard.epoch)) return;
    if (this.#catching) {
      if (this.#pending.length >= MAX_PENDING) {
        this.#pending = [];
        this.#again = true;
      } else this.#pending.push(heard);
      return;
    }
    if (this.#epoch === undefined) {
      // The head could not be read at start: the first change heard sets where this replica is.
      this.#epoch = heard.epoch;
      this.#seq = heard.seq - 1;
      this.#advance(heard);
      return;
    }
    if (this.#follows(heard)) {
      this.#advance(heard);
      return;
    }
    if (this.#applied(heard)) return;
    this.#pending.push(heard);
    void this.catchUp();
  }

  /**
   * Read what was missed and apply it (and what arrived meanwhile), once at a time; asked while
   * a catch-up runs, that one reads once more when its read is done (a connection lost and back
   * during the read may have missed what the read did not see). Resolves when done; never
   * rejects: a failed read is tried again a second later, and meanwhile what the channel brings
   * waits behind it, so changes are never applied out of order.
   */
  catchUp(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#catching) {
      this.#again = true;
      return this.#catching;
    }
    this.#catching = this.#run().finally(() => {
      this.#catching = undefined;
    });
    return this.#catching;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#pending = [];
  }

  async #run(): Promise<void> {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    try {
      do {
        this.#again = false;
        // What was heard before the read began was published before it: the read accounts for it.
        const earlier = this.#pending;
        this.#pending = [];
        const reportedMiss = await this.#readLog();
        const during = this.#pending;
        this.#pending = [];
        let unaccounted = false;
        for (const heard of earlier) {
          if (this.#settled(heard)) continue;
          if (this.#follows(heard)) this.#advance(heard);
          // An epoch Redis no longer has (a change sent before it lost its data, or one played
          // again later): nothing to tell, and nothing to read for when heard again.
          else if (heard.epoch !== this.#epoch) this.#leave(heard.epoch);
          else unaccounted = true;
        }
        for (const heard of during) {
          if (this.#settled(heard)) continue;
          if (this.#follows(heard)) this.#advance(heard);
          // Published during the read, past a gap: the next read brings what lies between.
          else this.#pending.push(heard);
        }
        // Announced in this epoch, heard, and yet past the head read afterwards: Redis lost it.
        if (unaccounted && !reportedMiss) this.options.missed();
        if (this.#pending.length > 0) this.#again = true;
      } while (this.#again && !this.#closed);
    } catch {
      // Redis away or slow: what was heard meanwhile stays in the log; read it all later.
      this.#pending = [];
      this.#again = false;
      if (this.#closed) return;
      this.#retry = setTimeout(() => void this.catchUp(), RETRY_MS);
      this.#retry.unref();
    }
  }

  /** Read the head and what was kept after this cursor; true when that was reported a miss. */
  async #readLog(): Promise<boolean> {
    const known = this.#epoch;
    const flat = (await this.options.run(
      REPLAY,
      [this.options.head, this.options.log],
      [known ?? '', this.#seq],
    )) as string[];
    // A read that was under way when the cursor closed tells no one.
    if (this.#closed) return false;
    const epoch = flat[0] ?? '';
    const head = Number(flat[1] ?? 0);
    // A head that is no number (damaged by someone who can write to Redis) is a failed read.
    if (!Number.isSafeInteger(head) || head < 0) throw new Error('changes head is not a number');
    if (known === undefined) {
      // First read: where this replica starts; nothing before it is its to tell.
      this.#epoch = epoch;
      this.#seq = head;
      return false;
    }
    if (epoch !== known && known !== '') {
      // Redis lost its data (a new epoch, or none yet): what changed meanwhile is unknown.
      this.#leave(known);
      return this.#miss(epoch, head);
    }
    // Same epoch, but behind what this replica applied: Redis came back from an older copy, and
    // the numbers it hands out next name changes this replica has not seen.
    if (head < this.#seq) return this.#miss(epoch, head);
    this.#epoch = epoch;
    const entries: NumberedChange[] = [];
    for (const entry of flat.slice(2)) {
      const parsed = parseNumbered(`${epoch} ${entry}`);
      if (parsed) entries.push(parsed);
    }
    const first = entries[0];
    if ((first === undefined && head > this.#seq) || (first !== undefined && first.seq > this.#seq + 1)) {
      // Some of what was missed is no longer kept: telling the rest one by one would not do.
      return this.#miss(epoch, head);
    }
    let damaged = false;
    for (const entry of entries) {
      if (entry.seq <= this.#seq) continue;
      // A hole in what is kept (someone who can write to Redis removed a change): lost too.
      if (entry.seq > this.#seq + 1) return this.#miss(epoch, head);
      const opened = this.#open(entry);
      if (opened) this.#advance(opened);
      else {
        // Not sealed for its place (someone who can write to Redis changed it): that change is lost.
        this.#seq = entry.seq;
        damaged = true;
      }
    }
    if (damaged) this.options.missed();
    return damaged;
  }

  #miss(epoch: string, head: number): true {
    this.#epoch = epoch;
    this.#seq = head;
    this.options.missed();
    return true;
  }

  #leave(epoch: string): void {
    if (epoch === '' || this.#gone.includes(epoch)) return;
    this.#gone.push(epoch);
    if (this.#gone.length > GONE_EPOCHS) this.#gone.shift();
  }

  #open(change: NumberedChange | undefined): Opened<T> | undefined {
    if (!change) return undefined;
    let opened: T | undefined;
    try {
      opened = this.options.open(change);
    } catch {
      return undefined;
    }
    return opened === undefined ? undefined : { epoch: change.epoch, seq: change.seq, change: opened };
  }

  /**
   * The next change after the last one applied, in the epoch this cursor read. With none read
   * yet ('' after Redis lost its data), a change of any epoch numbered 1 could be a copy of an
   * old one played again by someone who can write to Redis: it waits for a read of the head,
   * which shows whether its epoch is the current one (one read, on the first change only).
   */
  #follows(heard: Opened<T>): boolean {
    return heard.epoch === this.#epoch && heard.seq === this.#seq + 1;
  }

  /** Nothing left to do for it: of an epoch gone, or applied already. */
  #settled(heard: Opened<T>): boolean {
    return this.#gone.includes(heard.epoch) || this.#applied(heard);
  }

  /** Applied already (heard on the channel and read from the log, say). */
  #applied(heard: Opened<T>): boolean {
    return heard.epoch === this.#epoch && heard.seq <= this.#seq;
  }

  #advance(heard: Opened<T>): void {
    if (this.#closed) return;
    this.#epoch = heard.epoch;
    this.#seq = heard.seq;
    try {
      this.options.apply(heard.change);
    } catch {
      // One listener's failure must not stop the cursor.
    }
  }
}
