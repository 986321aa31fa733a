import { describe, expect, it } from 'vitest';
import { Cancellation, type CancellationView, onCancel } from '../src/cancellation.js';
import { Layer, Registry } from '../src/index.js';

describe('Cancellation', () => {
  it('runs its listeners once, in order, and keeps the reason', () => {
    const cancellation = new Cancellation();
    const seen: string[] = [];
    cancellation.onAbort(() => seen.push('a'));
    const remove = cancellation.onAbort(() => seen.push('b'));
    cancellation.onAbort(() => seen.push('c'));
    remove();
    const reason = new Error('stop');
    cancellation.abort(reason);
    cancellation.abort(new Error('again'));
    expect(seen).toEqual(['a', 'c']);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(reason);
  });

  it('tells a listener added after the fact at once', () => {
    const cancellation = new Cancellation();
    cancellation.abort();
    let told = false;
    cancellation.onAbort(() => {
      told = true;
    });
    expect(told).toBe(true);
    expect((cancellation.reason as Error).name).toBe('AbortError');
  });

  it('builds a standard signal on demand that follows it, before or after the abort', () => {
    const early = new Cancellation();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    early.abort('why');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('why');

    const late = new Cancellation();
    late.abort('late');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('late');
  });

  it('a throwing listener does not keep the others from running', () => {
    const cancellation = new Cancellation();
    let second = false;
    cancellation.onAbort(() => {
      throw new Error('boom');
    });
    cancellation.onAbort(() => {
      second = true;
    });
    cancellation.abort();
    expect(second).toBe(true);
  });

  it('onCancel listens to signals and cancellations alike', () => {
    const controller = new AbortController();
    const cancellation = new Cancellation();
    const seen: string[] = [];
    const stop = onCancel(controller.signal, () => seen.push('signal'));
    onCancel(cancellation, () => seen.push('cancellation'));
    stop();
    controller.abort();
    cancellation.abort();
    expect(seen).toEqual(['cancellation']);
  });

  it('a cancellation from another copy of the package is recognised by its shape', async () => {
    // What a second installed copy of @cloudg/core hands over: same shape, different class.
    const listeners: Array<() => void> = [];
    let aborted = false;
    const foreign: CancellationView = {
      get aborted() {
        return aborted;
      },
      reason: undefined,
      onAbort: (listener) => {
        listeners.push(listener);
        return () => {};
      },
      get signal() {
        return new AbortController().signal;
      },
    };
    const seen: string[] = [];
    onCancel(foreign, () => seen.push('foreign'));
    aborted = true;
    for (const listener of listeners) listener();
    expect(seen).toEqual(['foreign']);

    const registry = new Registry();
    registry.tool({ name: 'ok', handler: () => ({ ok: true }) });
    const result = await new Layer({ registry }).callTool(
      'ok',
      {},
      { signal: new Cancellation() as CancellationView },
    );
    expect(result.isError).toBe(false);
  });
});
