/**
 * The compacted log's selections: one final `use`, worked out from the operations (second review
 * of issue 20: the snapshot kept every earlier pin and grew with each compaction, and the pin was
 * the compacting replica's own active dataset).
 */
import { describe, expect, it } from 'vitest';
import type { WorkspaceOperation } from '../../src/index.js';
import { activeAfter, compactOperations } from '../../src/workspace/compact-operations.js';

const load = (name: string, activate = true): WorkspaceOperation => ({
  op: 'load',
  path: `/d/${name}`,
  name,
  kind: 'auto',
  normalise: true,
  activate,
  replace: false,
});

describe('compactOperations and the active dataset', () => {
  it('stays the same size however many compactions of selections and scratch datasets it went through', () => {
    let snapshot: WorkspaceOperation[] = [load('a'), load('b')];
    const sizes: number[] = [];
    for (let i = 0; i < 100; i++) {
      const active = i % 2 ? 'a' : 'b';
      snapshot = compactOperations([
        ...snapshot,
        { op: 'use', name: active },
        load('t', false),
        { op: 'unload', name: 't' },
      ]);
      sizes.push(snapshot.length);
    }
    expect(sizes[0]).toBe(3);
    expect(sizes[99]).toBe(3);
    expect(snapshot).toEqual([load('a'), load('b'), { op: 'use', name: 'a' }]);
  });

  it('pins the active dataset the operations leave, whatever the compacting replica holds', () => {
    // A replica that skipped the `use` of q (it could not apply it) has p active; the log says q.
    const ops: WorkspaceOperation[] = [
      load('p'),
      load('q', false),
      { op: 'use', name: 'q' },
      load('x', false),
    ];
    expect(compactOperations(ops).at(-1)).toEqual({ op: 'use', name: 'q' });
  });

  it('follows the workspace: an inactive first dataset becomes active, an unloaded active one hands over to the latest added', () => {
    expect(activeAfter([load('a', false)])).toBe('a');
    expect(activeAfter([load('a'), load('b', false), load('c', false), { op: 'unload', name: 'a' }])).toBe(
      'c',
    );
    expect(activeAfter([load('a'), load('b'), { op: 'use', name: 'a' }, { op: 'unload', name: 'a' }])).toBe(
      'b',
    );
    expect(activeAfter([load('a'), { op: 'unload', name: 'a' }])).toBeNull();
    // A snapshot never takes over; a replaced dataset moves to the end, as the workspace's map does.
    expect(
      activeAfter([
        load('a'),
        load('b', false),
        { op: 'snapshot', from: 'a', name: 's', replace: false },
        { ...load('b', false), replace: true } as WorkspaceOperation,
        { op: 'unload', name: 'a' },
      ]),
    ).toBe('b');
  });
});
