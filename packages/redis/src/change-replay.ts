/**
 * Catching up on the changes a replica missed while its pub/sub connection to Redis was down.
 *
 * Pub/sub keeps nothing, so each announcement is also numbered and kept (change-fanout.ts):
 * `<prefix>changes:head` (a hash: `e` the epoch, a random id chosen by the first announcement
 * after Redis lost its data; `s` the number of the last change) and `<prefix>changes:log` (a
 * sorted set of the last `kept` sealed changes, scored by their number). The channel carries
 * `<epoch> <number> <sealed change>`.
 *
 * A `ChangeCursor` remembers the last number this replica applied. A change that follows it is
 * applied at once; one that comes after a gap (messages lost), a change of a new epoch, and every
 * re-subscription after a lost connection make it read what it missed from the log and apply
 * that, in order, before what arrived meanwhile. When more was missed than the log keeps (or
 * Redis lost its data, so nobody can say what changed), the replica's listeners are told that
 * changes were missed (`missed`), and catch up by assuming that everything they follow changed.
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

interface Heard {
  epoch: string;
  seq: number;
  sealed: string;
}

/** Split `<epoch> <number> <rest>`; undefined for anything else. */
export function parseNumbered(text: string): Heard | undefined {
  const first = text.indexOf(' ');
  const second = first < 0 ? -1 : text.indexOf(' ', first + 1);
  if (second < 0) return undefined;
  const seq = Number(text.slice(first + 1, second));
  if (!Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { epoch: text.slice(0, first), seq, sealed: text.slice(second + 1) };
}

export interface ChangeCursorOptions {
  /** Runs a command on the replica's ordinary connection (not the subscriber). */
  run: (script: LuaScript, keys: string[], args: (string | number)[]) => Promise<unknown>;
  head: string;
  log: string;
  /** Apply one change (sealed as the channel carries it). */
  apply: (sealed: string) => void;
  /** More was missed than can be replayed one by one. */
  missed: () => void;
}

export class ChangeCursor {
  /** Undefined until the head was first read; '' while no change was ever announced. */
  #epoch: string | undefined;
  #seq = 0;
  #catching: Promise<void> | undefined;
  /** Heard on the channel while catching up: applied after what the log returns. */
  #pending: Heard[] = [];
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly options: ChangeCursorOptions) {}

  /** A message of the changes channel. */
  heard(text: string): void {
    const heard = parseNumbered(text);
    if (!heard || this.#closed) return;
    if (this.#catching) {
      this.#pending.push(heard);
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
   * Read what was missed and apply it (and what arrived meanwhile), once at a time. Resolves
   * when done; never rejects: a failed read is tried again a second later, and meanwhile what
   * the channel brings waits behind it, so changes are never applied out of order.
   */
  catchUp(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#catching ??= this.#run().finally(() => {
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
      for (;;) {
        await this.#readLog();
        const pending = this.#pending;
        this.#pending = [];
        const gap = pending.findIndex((heard) => {
          if (this.#follows(heard)) this.#advance(heard);
          else if (!this.#applied(heard)) return true;
          return false;
        });
        if (gap < 0) return;
        // A change published after the log was read, past a gap: read again.
        this.#pending = pending.slice(gap);
      }
    } catch {
      // Redis away or slow: what was heard meanwhile stays in the log; read it all later.
      this.#pending = [];
      if (this.#closed) return;
      this.#retry = setTimeout(() => void this.catchUp(), RETRY_MS);
      this.#retry.unref();
    }
  }

  async #readLog(): Promise<void> {
    const known = this.#epoch;
    const flat = (await this.options.run(
      REPLAY,
      [this.options.head, this.options.log],
      [known ?? '', this.#seq],
    )) as string[];
    const epoch = flat[0] ?? '';
    const head = Number(flat[1] ?? 0);
    if (known === undefined) {
      // First read: where this replica starts; nothing before it is its to tell.
      this.#epoch = epoch;
      this.#seq = head;
      return;
    }
    if (epoch !== known && known !== '') {
      // Redis lost its data (a new epoch, or none yet): what changed meanwhile is unknown.
      this.#epoch = epoch;
      this.#seq = head;
      this.options.missed();
      return;
    }
    this.#epoch = epoch;
    const entries: Heard[] = [];
    for (const entry of flat.slice(2)) {
      const parsed = parseNumbered(`${epoch} ${entry}`);
      if (parsed) entries.push(parsed);
    }
    const first = entries[0];
    if ((first === undefined && head > this.#seq) || (first !== undefined && first.seq > this.#seq + 1)) {
      // Some of what was missed is no longer kept: telling the rest one by one would not do.
      this.#seq = head;
      this.options.missed();
      return;
    }
    for (const entry of entries) if (this.#follows(entry)) this.#advance(entry);
  }

  /** The next change after the last one applied (the first of a new epoch, when there was none). */
  #follows(heard: Heard): boolean {
    return (heard.epoch === this.#epoch || this.#epoch === '') && heard.seq === this.#seq + 1;
  }

  /** Applied already (heard on the channel and read from the log, say). */
  #applied(heard: Heard): boolean {
    return heard.epoch === this.#epoch && heard.seq <= this.#seq;
  }

  #advance(heard: Heard): void {
    this.#epoch = heard.epoch;
    this.#seq = heard.seq;
    try {
      this.options.apply(heard.sealed);
    } catch {
      // One listener's failure must not stop the cursor.
    }
  }
}
