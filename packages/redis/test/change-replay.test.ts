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
    apply: (sealed) => applied.push(sealed),
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
