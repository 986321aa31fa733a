/**
 * Appending to sessions' stream logs. Each entry's seal names its own event id, so an entry
 * copied to a later place of the log (or published again under a later id) is refused by every
 * replica that reads it. The replica therefore chooses the id before sealing, not Redis
 * (`XADD *`): ids come from this process's clock, always after the ones it chose before; when
 * another replica logged to the same session meanwhile with a later id (its clock ahead, or
 * the same millisecond), the script answers the log's last id and the entry is sealed again
 * after it. Ids keep Redis's `ms-seq` form, which is all `Last-Event-ID` ever carries.
 *
 * Two consequences of choosing ids here, each handled at its cause:
 * - Order. An append refused and sealed again lands after whatever was logged meanwhile, so a
 *   later message of the same session, sent while the first was in flight, would land before
 *   it. Appends of one session are therefore issued one at a time per process (each waits for
 *   the previous one to that session to settle); appends to different sessions do not wait.
 * - The clock follows only ids it can trust. A log's last id comes from Redis, where anyone who
 *   can write may have put any id: one whose milliseconds are not a safe integer, or lie further
 *   ahead of this replica's clock than replicas' clocks may differ, would carry the one clock of
 *   this process (and so every session's appends) somewhere no id can follow. Such a log is
 *   refused (its entries are not logged, and the append fails) and the clock stays where it was.
 *   An id within the bound is followed, so a planted one can move this clock up to the bound
 *   ahead; a replica whose clock lags this one's then refuses the logs this replica writes into
 *   next, for as long as it lags (with NTP, milliseconds), until real time catches up.
 */
import type { JsonRpcMessage } from '@cloudg/transports';
import type { SessionSeal } from './session-seal.js';

/** What one append carries to one session's log. */
export interface LogItem {
  session: string;
  message: JsonRpcMessage | JsonRpcMessage[];
}

/** Runs the APPEND script with these arguments after the prefix (session-scripts.ts). */
export type RunAppend = (args: (string | number)[]) => Promise<unknown>;

/** Rounds of sealing again after a busy log before giving up (each is one more script). */
const ATTEMPTS = 8;

/**
 * How far ahead of this replica's clock a log's last id may be and still be followed. Replicas'
 * clocks agree by NTP (docs/replicas.md) to well within this; the log of a session written by a
 * replica whose clock is further ahead is refused here until this clock catches up.
 */
export const MAX_LOG_AHEAD_MS = 60_000;

/** A Redis stream id: at most 64 bits in each part. */
const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;

const MAX_PART = (1n << 64n) - 1n;

/**
 * Whether `text` is an id a log's entries can come after: Redis's `ms-seq` with each part in 64
 * bits, and not the largest id of all. Anything else (a client's `Last-Event-ID` included) would
 * make Redis fail the script, which a client could only read as Redis being away.
 */
export function isStreamId(text: string): boolean {
  const parts = STREAM_ID.exec(text);
  if (!parts) return false;
  // Parts of up to 19 digits are below 2^64: the usual ids need no big integers.
  if ((parts[1] as string).length < 20 && (parts[2] as string).length < 20) return true;
  const ms = BigInt(parts[1] as string);
  const seq = BigInt(parts[2] as string);
  return ms <= MAX_PART && seq <= MAX_PART && (ms < MAX_PART || seq < MAX_PART);
}

/**
 * The id after which this clock may continue once told the log's last id is `id`, as numbers;
 * undefined when the id is not one to follow (see the module comment).
 */
export function followable(id: string, now: number): [number, number] | undefined {
  const parts = STREAM_ID.exec(id);
  if (!parts) return undefined;
  const ms = Number(parts[1]);
  if (!Number.isSafeInteger(ms) || ms > now + MAX_LOG_AHEAD_MS) return undefined;
  const seq = Number(parts[2]);
  // A sequence beyond what a Number holds exactly: continue in the next millisecond instead.
  return Number.isSafeInteger(seq + 1) ? [ms, seq] : [ms + 1, -1];
}

/** Event ids of this process: increasing, and after any id it is told was taken. */
class EventClock {
  private ms = 0;
  private seq = 0;

  /** The next id; after `after` too, when given (a pair from `followable`). */
  next(after?: [number, number]): string {
    const now = Date.now();
    const [ams, aseq] = after ?? [0, -1];
    if (now > this.ms && now > ams) {
      this.ms = now;
      this.seq = 0;
    } else if (ams > this.ms || (ams === this.ms && aseq >= this.seq)) {
      this.ms = ams;
      this.seq = aseq + 1;
    } else if (Number.isSafeInteger(this.seq + 1)) {
      this.seq += 1;
    } else {
      this.ms += 1;
      this.seq = 0;
    }
    return `${this.ms}-${this.seq}`;
  }
}

const clock = new EventClock();

/**
 * Per session, the end of the last append this process issued to it: the next one waits for it.
 * An entry is removed once its append settles and none came after it, so the map holds only
 * sessions with appends in flight.
 */
const tails = new Map<string, Promise<void>>();

/**
 * Log each item in its session (in order per session, and after every earlier append of this
 * process to that session), routed to the replica holding the stream. `onlyInitialized` skips
 * sessions not initialized (a change notification); sessions gone are skipped. Throws after
 * ATTEMPTS rounds of logs busy with other replicas' entries, or when a log's last id cannot be
 * followed (its entries are not logged; other sessions' are).
 */
export function appendToLogs(
  seal: SessionSeal,
  items: LogItem[],
  logLength: number,
  onlyInitialized: boolean,
  run: RunAppend,
): Promise<void> {
  const sessions = [...new Set(items.map((item) => item.session))];
  const before: Promise<void>[] = [];
  for (const session of sessions) {
    const tail = tails.get(session);
    if (tail) before.push(tail);
  }
  const issue = () => appendNow(seal, items, logLength, onlyInitialized, run);
  // Nothing in flight for these sessions (the usual case): issued at once, without a wait.
  const done = before.length === 0 ? issue() : Promise.all(before).then(issue);
  const settled = done.then(
    () => {},
    () => {},
  );
  for (const session of sessions) tails.set(session, settled);
  void settled.then(() => {
    for (const session of sessions) if (tails.get(session) === settled) tails.delete(session);
  });
  return done;
}

async function appendNow(
  seal: SessionSeal,
  items: LogItem[],
  logLength: number,
  onlyInitialized: boolean,
  run: RunAppend,
): Promise<void> {
  // Ids are chosen when the append is issued, after those of every earlier one.
  let pending = items.map((item) => ({ item, id: clock.next() }));
  let unfollowable = 0;
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt += 1) {
    const args: (string | number)[] = [logLength, onlyInitialized ? '1' : '0'];
    for (const { item, id } of pending)
      args.push(item.session, id, seal.entry(item.session, id, item.message));
    const answers = (await run(args)) as string[];
    const refused: typeof pending = [];
    const refusedLogs = new Set<string>();
    pending.forEach((entry, i) => {
      const answer = answers[i];
      if (answer === undefined || answer === '' || answer === '=') return;
      const after = followable(String(answer), Date.now());
      if (after === undefined || refusedLogs.has(entry.item.session)) {
        refusedLogs.add(entry.item.session);
        unfollowable += 1;
        return;
      }
      refused.push({ item: entry.item, id: clock.next(after) });
    });
    pending = refused;
  }
  if (unfollowable > 0)
    throw new Error(
      `Session log refused: ${unfollowable} entries not logged, the log's last event id is not one to follow`,
    );
  if (pending.length > 0)
    throw new Error(`Session log busy: ${pending.length} entries not logged after ${ATTEMPTS} attempts`);
}
