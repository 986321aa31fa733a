/**
 * Appending to sessions' stream logs. Each entry's seal names its own event id, so an entry
 * copied to a later place of the log (or published again under a later id) is refused by every
 * replica that reads it. The replica therefore chooses the id before sealing, not Redis
 * (`XADD *`): ids come from this process's clock, always after the ones it chose before; when
 * another replica logged to the same session meanwhile with a later id (its clock ahead, or
 * the same millisecond), the script answers the log's last id and the entry is sealed again
 * after it. Ids keep Redis's `ms-seq` form, which is all `Last-Event-ID` ever carries.
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

function parse(id: string): [number, number] {
  const [ms = 0, seq = 0] = id.split('-').map(Number);
  return [ms, seq];
}

/** Event ids of this process: increasing, and after any id it is told was taken. */
class EventClock {
  private ms = 0;
  private seq = 0;

  next(after?: string): string {
    const now = Date.now();
    const [ams, aseq] = after === undefined ? [0, -1] : parse(after);
    if (now > this.ms && now > ams) {
      this.ms = now;
      this.seq = 0;
    } else if (ams > this.ms || (ams === this.ms && aseq >= this.seq)) {
      this.ms = ams;
      this.seq = aseq + 1;
    } else {
      this.seq += 1;
    }
    return `${this.ms}-${this.seq}`;
  }
}

const clock = new EventClock();

/**
 * Log each item in its session (in order per session), routed to the replica holding the stream.
 * `onlyInitialized` skips sessions not initialized (a change notification); sessions gone are
 * skipped. Throws after ATTEMPTS rounds of logs busy with other replicas' entries.
 */
export async function appendToLogs(
  seal: SessionSeal,
  items: LogItem[],
  logLength: number,
  onlyInitialized: boolean,
  run: RunAppend,
): Promise<void> {
  let pending = items.map((item) => ({ item, id: clock.next() }));
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt += 1) {
    const args: (string | number)[] = [logLength, onlyInitialized ? '1' : '0'];
    for (const { item, id } of pending)
      args.push(item.session, id, seal.entry(item.session, id, item.message));
    const answers = (await run(args)) as string[];
    const refused: typeof pending = [];
    pending.forEach((entry, i) => {
      const answer = answers[i];
      if (answer === undefined || answer === '' || answer === '=') return;
      refused.push({ item: entry.item, id: clock.next(answer) });
    });
    pending = refused;
  }
  if (pending.length > 0)
    throw new Error(`Session log busy: ${pending.length} entries not logged after ${ATTEMPTS} attempts`);
}
