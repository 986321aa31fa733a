/**
 * Appends to sessions' logs, against a stand-in for the APPEND script (one call at a time, in
 * the order sent, as on one connection): messages of one session sent together are logged in the
 * order sent even when another replica takes the id of the first meanwhile, and a log's last id
 * is followed only when it is one a clock can follow.
 */
import { expect, it } from 'vitest';
import {
  appendToLogs,
  followable,
  isStreamId,
  MAX_LOG_AHEAD_MS,
  type RunAppend,
} from '../src/session-append.js';
import type { SessionSeal } from '../src/session-seal.js';

const after = (a: string, b: string) => {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am > bm || (am === bm && as > bs);
};

/** One session's log and the APPEND script over it; `before` runs ahead of each call. */
function logOf(before: (args: (string | number)[]) => void = () => {}) {
  const log: { id: string; text: string }[] = [];
  const state = { last: '0-0' };
  let queue = Promise.resolve();
  const run: RunAppend = (args) => {
    const call = queue.then(async () => {
      before(args);
      const out: string[] = [];
      for (let i = 2; i < args.length; i += 3) {
        const id = String(args[i + 1]);
        if (!after(id, state.last)) {
          out.push(state.last);
          continue;
        }
        state.last = id;
        log.push({ id, text: String(args[i + 2]) });
        out.push('=');
      }
      return out;
    });
    queue = call.then(() => undefined);
    return call;
  };
  return { log, state, run };
}

const seal = {
  entry: (_s: string, id: string, m: unknown) => `${(m as { n: string }).n}@${id}`,
} as unknown as SessionSeal;
const item = (n: string) => ({ session: 's', message: { n } as never });

it('two messages of one session in flight together keep their order when another replica took the first id', async () => {
  let injected = false;
  const { log, state, run } = logOf((args) => {
    if (injected) return;
    injected = true;
    // Replica B logs into the session in the same millisecond, with the very id A chose.
    state.last = String(args[3]);
    log.push({ id: state.last, text: 'from-B' });
  });
  await Promise.all([
    appendToLogs(seal, [item('progress-1')], 1024, false, run),
    appendToLogs(seal, [item('progress-2')], 1024, false, run),
  ]);
  const order = log.filter((e) => e.text.startsWith('progress')).map((e) => e.text.split('@')[0]);
  expect(order).toEqual(['progress-1', 'progress-2']);
  // Each entry is sealed with the id it was logged under.
  for (const e of log.filter((x) => x.text.startsWith('progress')))
    expect(e.text.endsWith(`@${e.id}`)).toBe(true);
});

it('a log whose last id cannot be followed refuses its entries; the clock does not move', async () => {
  const forged = logOf();
  forged.state.last = '18446744073709551615-18446744073709551615';
  await expect(appendToLogs(seal, [item('x')], 1024, false, forged.run)).rejects.toThrow(
    /Session log refused/,
  );
  const fine = logOf();
  await appendToLogs(seal, [item('y')], 1024, false, fine.run);
  const [ms] = (fine.log[0]?.id ?? '').split('-').map(Number) as [number];
  expect(Math.abs(ms - Date.now())).toBeLessThan(5_000);
});

it('ids to follow: safe milliseconds no further ahead than replicas may differ', () => {
  const now = 1_800_000_000_000;
  expect(followable(`${now}-7`, now)).toEqual([now, 7]);
  expect(followable(`${now + MAX_LOG_AHEAD_MS}-0`, now)).toEqual([now + MAX_LOG_AHEAD_MS, 0]);
  expect(followable(`${now + MAX_LOG_AHEAD_MS + 1}-0`, now)).toBeUndefined();
  expect(followable('18446744073709551615-0', now)).toBeUndefined();
  expect(followable('not-an-id', now)).toBeUndefined();
  // A sequence past 2^53 continues in the next millisecond.
  expect(followable(`${now}-18446744073709551615`, now)).toEqual([now + 1, -1]);
});

it('stream ids a log can continue after: 64 bits a part, not the largest id', () => {
  expect(isStreamId('0-0')).toBe(true);
  expect(isStreamId('1764633600000-3')).toBe(true);
  expect(isStreamId('18446744073709551615-18446744073709551614')).toBe(true);
  expect(isStreamId('18446744073709551615-18446744073709551615')).toBe(false);
  expect(isStreamId('18446744073709551616-0')).toBe(false);
  expect(isStreamId('99999999999999999999999-0')).toBe(false);
  expect(isStreamId('12')).toBe(false);
  expect(isStreamId('1-2-3')).toBe(false);
});
