/**
 * The change cursor's ordering rules, against a stand-in for the kept changes: a change heard
 * after a gap (messages lost without the connection dropping) makes it read the missing ones and
 * apply everything in order, once; duplicates are dropped; a failed read is tried again, and what
 * was heard meanwhile waits behind it.
 */
import { expect, it } from 'vitest';
import { ChangeCursor } from '../src/change-replay.js';

/** Kept changes "<seq> <text>" of one epoch, read as the REPLAY script would. */
function keptLog(first: string) {
  let epoch = first;
  const kept: string[] = [];
  let failures = 0;
  const run = async (_script: unknown, _keys: string[], args: (string | number)[]) => {
    if (failures > 0) {
      failures -= 1;
      throw new Error('Connection is closed.');
    }
    if (kept.length === 0) return ['', '0'];
    const after = Number(args[1]);
    if (args[0] !== '' && args[0] !== epoch) return [epoch, String(kept.length)];
    return [epoch, String(kept.length), ...kept.filter((e) => Number(e.split(' ')[0]) > after)];
  };
  return {
    run,
    add(text: string): string {
      kept.push(`${kept.length + 1} ${text}`);
      return `${epoch} ${kept.length} ${text}`;
    },
    failNext(n: number) {
      failures = n;
    },
    /** Redis restarted empty; the next announcement starts epoch `next`. */
    lose(next: string) {
      kept.length = 0;
      epoch = next;
    },
  };
}

function cursorOver(log: ReturnType<typeof keptLog>) {
  const applied: string[] = [];
  let missed = 0;
  const cursor = new ChangeCursor({
    run: log.run as never,
    head: 'h',
    log: 'l',
    open: (change: { sealed: string }) => change.sealed,
    apply: (sealed: string) => applied.push(sealed),
    missed: () => {
      missed += 1;
    },
  });
  return { cursor, applied, missed: () => missed };
}

it('a change heard past a gap brings the missing ones first, in order, each once', async () => {
  const log = keptLog('e1');
  const { cursor, applied } = cursorOver(log);
  await cursor.catchUp();
  cursor.heard(log.add('one'));
  const lostTwo = log.add('two');
  log.add('three');
  cursor.heard(log.add('four'));
  await cursor.catchUp();
  cursor.heard(lostTwo);
  expect(applied).toEqual(['one', 'two', 'three', 'four']);
});

it('a failed read is tried again; what was heard meanwhile is applied after what it missed', async () => {
  const log = keptLog('e1');
  const { cursor, applied } = cursorOver(log);
  await cursor.catchUp();
  log.add('one');
  log.failNext(1);
  cursor.heard(log.add('two'));
  await cursor.catchUp();
  expect(applied).toEqual([]);
  // The retry a second later reads both.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  await cursor.catchUp();
  expect(applied).toEqual(['one', 'two']);
  cursor.close();
});

it('a new epoch (Redis lost its data) is a miss: listeners are told once, then it follows the new one', async () => {
  const log = keptLog('e1');
  const { cursor, applied, missed } = cursorOver(log);
  await cursor.catchUp();
  cursor.heard(log.add('one'));
  log.lose('e2');
  cursor.heard(log.add('again'));
  await cursor.catchUp();
  expect(missed()).toBe(1);
  cursor.heard(log.add('next'));
  expect(applied).toEqual(['one', 'next']);
});

/** A cursor over a stand-in that counts its reads; `head` and `kept` read as they are at each read. */
function countingCursor(
  state: { epoch: string; head: number; kept: string[] },
  open: (c: { sealed: string }) => string | undefined = (c) => c.sealed,
) {
  let reads = 0;
  let missed = 0;
  const applied: string[] = [];
  let gate: Promise<void> | undefined;
  const cursor = new ChangeCursor({
    run: (async (_s: unknown, _k: unknown, args: (string | number)[]) => {
      reads += 1;
      // What Redis holds when the script runs, answered after the gate (a slow reply).
      const answer = [
        state.epoch,
        String(state.head),
        ...(args[0] === '' || args[0] === state.epoch
          ? state.kept.filter((e) => Number(e.split(' ')[0]) > Number(args[1]))
          : []),
      ];
      await new Promise((resolve) => setImmediate(resolve));
      if (gate) await gate;
      return answer;
    }) as never,
    head: 'h',
    log: 'l',
    open,
    apply: (sealed: string) => applied.push(sealed),
    missed: () => {
      missed += 1;
    },
  });
  return {
    cursor,
    applied,
    reads: () => reads,
    missed: () => missed,
    hold(until: Promise<void>) {
      gate = until;
    },
  };
}

const sleepMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a change of an epoch Redis no longer has is read for once, then ignored: no endless reading', async () => {
  const state = { epoch: 'e1', head: 3, kept: ['1 a', '2 b', '3 c'] };
  const { cursor, reads, applied, missed } = countingCursor(state);
  await cursor.catchUp();
  const before = reads();
  cursor.heard('e0 1 from-an-epoch-gone');
  await sleepMs(200);
  expect(reads() - before).toBe(1);
  // Heard again (played again by anyone who can publish), it costs nothing.
  cursor.heard('e0 1 from-an-epoch-gone');
  cursor.heard('e0 2 from-an-epoch-gone');
  await sleepMs(50);
  expect(reads() - before).toBe(1);
  expect(applied).toEqual([]);
  expect(missed()).toBe(0);
  cursor.close();
});

it('a change numbered past the head, heard before the read, is dropped after one read and reported missed', async () => {
  const state = { epoch: 'e1', head: 3, kept: ['1 a', '2 b', '3 c'] };
  const { cursor, reads, applied, missed } = countingCursor(state);
  await cursor.catchUp();
  const before = reads();
  cursor.heard('e1 9007199254740991 far-ahead');
  await sleepMs(200);
  expect(reads() - before).toBe(1);
  expect(applied).toEqual([]);
  expect(missed()).toBe(1);
  // The cursor still follows the head: the next real change is applied at once.
  state.head = 4;
  state.kept.push('4 d');
  cursor.heard('e1 4 d');
  expect(applied).toEqual(['d']);
  cursor.close();
});

it('the epoch left behind after Redis lost its data: its changes heard later cost no read', async () => {
  const state = { epoch: 'e1', head: 1, kept: ['1 a'] };
  const { cursor, reads, missed } = countingCursor(state);
  await cursor.catchUp();
  state.epoch = 'e2';
  state.head = 0;
  state.kept = [];
  await cursor.catchUp();
  expect(missed()).toBe(1);
  const before = reads();
  cursor.heard('e1 2 late-from-e1');
  await sleepMs(50);
  expect(reads() - before).toBe(0);
  cursor.close();
});

it('a change that does not open (forged, or sealed for another place) is ignored without a read', async () => {
  const state = { epoch: 'e1', head: 1, kept: ['1 a'] };
  const { cursor, reads, applied } = countingCursor(state, (c) =>
    c.sealed.startsWith('ok:') ? c.sealed : undefined,
  );
  await cursor.catchUp();
  const before = reads();
  cursor.heard('zz 1 junk');
  cursor.heard('e1 2 junk');
  await sleepMs(50);
  expect(reads() - before).toBe(0);
  expect(applied).toEqual([]);
  cursor.close();
});

it('a head behind the cursor (Redis back from an older snapshot) is a miss; the changes numbered again are applied', async () => {
  const state = { epoch: 'e1', head: 10, kept: Array.from({ length: 10 }, (_, i) => `${i + 1} c${i + 1}`) };
  const { cursor, applied, missed } = countingCursor(state);
  await cursor.catchUp();
  state.head = 8;
  state.kept = state.kept.slice(0, 8);
  await cursor.catchUp(); // the re-subscription's catch-up
  expect(missed()).toBe(1);
  state.head = 9;
  state.kept.push('9 new-9');
  cursor.heard('e1 9 new-9');
  state.head = 10;
  state.kept.push('10 new-10');
  cursor.heard('e1 10 new-10');
  await sleepMs(20);
  expect(applied).toEqual(['new-9', 'new-10']);
  cursor.close();
});

it('a catch-up asked for while one reads (connection lost and back meanwhile) reads again after it', async () => {
  const state = { epoch: 'e1', head: 1, kept: ['1 a'] };
  const { cursor, applied, hold } = countingCursor(state);
  await cursor.catchUp();
  let release = () => {};
  hold(
    new Promise<void>((resolve) => {
      release = resolve;
    }),
  );
  // A catch-up starts (a gap), and its read has run in Redis before change 3 is published.
  state.head = 2;
  state.kept.push('2 b');
  const first = cursor.catchUp();
  await sleepMs(5);
  // Change 3 is published while the subscriber is down, then the subscriber is back.
  state.head = 3;
  state.kept.push('3 c');
  const again = cursor.catchUp();
  hold(Promise.resolve());
  release();
  await first;
  await again;
  expect(applied).toEqual(['b', 'c']);
  cursor.close();
});

it('with no change announced since Redis came back empty, a copy of an old change numbered 1 is not told; the first real one is', async () => {
  const log = keptLog('new');
  const { cursor, applied, missed } = cursorOver(log);
  await cursor.catchUp();
  expect(cursor.position).toEqual({ epoch: '', seq: 0 });
  // Captured in an earlier life of Redis and published again by someone who can write to it.
  cursor.heard('old 1 captured');
  await cursor.catchUp();
  expect(applied).toEqual([]);
  // The first announcement of the new epoch is applied once, after the read that confirms it.
  cursor.heard(log.add('first'));
  await cursor.catchUp();
  expect(applied).toEqual(['first']);
  expect(missed()).toBe(0);
  expect(cursor.position).toEqual({ epoch: 'new', seq: 1 });
});
