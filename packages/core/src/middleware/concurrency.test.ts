import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../errors.js';
import { Layer } from '../layer/layer.js';
import { LayerConfigError } from '../layer/options.js';
import { Principal } from '../principal.js';
import { Registry } from '../registry.js';
import {
  ConcurrencyLimitMiddleware,
  type ConcurrencyLimitOptions,
  SERVER_BUSY_MESSAGE,
} from './concurrency.js';

const quiet = pino({ level: 'silent' });
const realSetImmediate = globalThis.setImmediate;

/** A tool that runs until the test releases it, so the test decides when slots free up. */
function setup(options: ConcurrencyLimitOptions) {
  const gates: Array<() => void> = [];
  const started: string[] = [];
  const gated = (label: string) =>
    new Promise((resolve) => {
      started.push(label);
      gates.push(() => resolve({ label }));
    });
  const registry = new Registry();
  registry.tool({ name: 'work', input: {}, handler: (ctx) => gated(ctx.principal.id) });
  registry.resource({ uri: 'test://r', name: 'r', handler: () => gated('resource') });
  registry.resourceTemplate({
    name: 'item',
    uriTemplate: 'test://items/{id}',
    completions: {
      id: async () => {
        await gated('completion');
        return ['x'];
      },
    },
    handler: () => ({}),
  });
  const limiter = new ConcurrencyLimitMiddleware(options);
  const layer = new Layer({ registry, middleware: [limiter.middleware], logger: quiet, defaultTimeout: 0 });
  /** Let pending promise callbacks run. */
  // A real macrotask turn (fake timers do not touch the saved setImmediate): every pending
  // microtask, however deep the call path, has run by then.
  const settle = () => new Promise<void>((resolve) => realSetImmediate(resolve));
  const releaseNext = () => gates.shift()?.();
  return { layer, limiter, started, releaseNext, settle };
}

const as = (id: string) => ({ principal: new Principal({ id }) });

describe('ConcurrencyLimitMiddleware', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at most `limit` tool calls at once and starts waiting ones in arrival order', async () => {
    const { layer, limiter, started, releaseNext, settle } = setup({ limit: 2 });
    const calls = ['a', 'b', 'c', 'd'].map((id) => layer.callTool('work', {}, as(id)));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(limiter.inFlight).toBe(2);
    expect(limiter.queued).toBe(2);
    releaseNext();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    releaseNext();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    releaseNext();
    releaseNext();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.structured)).toEqual(['a', 'b', 'c', 'd'].map((label) => ({ label })));
    expect(limiter.inFlight).toBe(0);
  });

  it('a call waiting longer than queueTimeout gets an error result with -31029', async () => {
    const { layer, limiter, releaseNext, settle } = setup({ limit: 1, queueTimeout: 5 });
    const first = layer.callTool('work', {}, as('a'));
    const second = layer.callTool('work', {}, as('b'));
    await settle();
    await vi.advanceTimersByTimeAsync(5_000);
    const busy = await second;
    expect(busy.isError).toBe(true);
    expect(busy.content).toEqual([{ type: 'text', text: SERVER_BUSY_MESSAGE }]);
    expect(busy.meta['cloudg/error_code']).toBe(-31029);
    expect(limiter.queued).toBe(0);
    releaseNext();
    expect((await first).isError).toBe(false);
    expect(limiter.inFlight).toBe(0);
  });

  it('raises RateLimitedError for resource reads, which transports turn into a protocol error', async () => {
    const { layer, settle } = setup({ limit: 1, queueTimeout: 1, kinds: ['resource'] });
    void layer.readResource('test://r');
    const second = layer.readResource('test://r').catch((e: unknown) => e);
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await second;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: -31029, message: SERVER_BUSY_MESSAGE });
  });

  it('with queueTimeout null a call waits as long as it takes', async () => {
    const { layer, started, releaseNext, settle } = setup({ limit: 1, queueTimeout: null });
    const first = layer.callTool('work', {}, as('a'));
    const second = layer.callTool('work', {}, as('b'));
    await settle();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(started).toEqual(['a']);
    releaseNext();
    await settle();
    releaseNext();
    expect((await second).structured).toEqual({ label: 'b' });
    await first;
  });

  it('limits each principal to perPrincipal without holding back the others', async () => {
    const { layer, limiter, started, releaseNext, settle } = setup({ limit: 3, perPrincipal: 1 });
    const calls = [layer.callTool('work', {}, as('a')), layer.callTool('work', {}, as('a'))];
    calls.push(layer.callTool('work', {}, as('b')));
    await settle();
    expect(started).toEqual(['a', 'b']); // the second call of `a` waits; `b` behind it does not
    expect(limiter.inFlight).toBe(2);
    releaseNext(); // the first `a` finishes
    await settle();
    expect(started).toEqual(['a', 'b', 'a']);
    releaseNext();
    releaseNext();
    await Promise.all(calls);
    expect(limiter.inFlight).toBe(0);
  });

  it('a queued call whose caller cancels leaves the queue and never runs', async () => {
    const { layer, limiter, started, releaseNext, settle } = setup({ limit: 1 });
    const first = layer.callTool('work', {}, as('a'));
    const controller = new AbortController();
    const cancelled = layer.callTool('work', {}, { ...as('b'), signal: controller.signal });
    const third = layer.callTool('work', {}, as('c'));
    await settle();
    expect(limiter.queued).toBe(2);
    controller.abort();
    const result = await cancelled;
    expect(result.meta['cloudg/error_code']).toBe(-32800);
    expect(limiter.queued).toBe(1);
    releaseNext();
    await settle();
    expect(started).toEqual(['a', 'c']);
    releaseNext();
    await Promise.all([first, third]);
    expect(limiter.inFlight).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // no queue timer left behind
  });

  it('many calls queued without a cancellation signal cause no listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { layer, limiter, releaseNext, settle } = setup({ limit: 1 });
      const calls = Array.from({ length: 20 }, (_, i) => layer.callTool('work', {}, as(`p${i}`)));
      await settle();
      expect(limiter.queued).toBe(19);
      for (let i = 0; i < 20; i++) {
        releaseNext();
        await settle();
      }
      await Promise.all(calls);
      await new Promise((resolve) => process.nextTick(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('counts only the configured kinds; completions count with resource or completion', async () => {
    const toolsOnly = setup({ limit: 1 });
    void toolsOnly.layer.callTool('work', {}, as('a'));
    void toolsOnly.layer.readResource('test://r');
    await toolsOnly.settle();
    expect([...toolsOnly.started].sort()).toEqual(['a', 'resource']); // the read did not wait
    expect(toolsOnly.limiter.inFlight).toBe(1);

    const ref = { type: 'ref/resource', uri: 'test://items/{id}' } as const;
    for (const kinds of [['resource'], ['completion']] as const) {
      const { layer, limiter, settle } = setup({ limit: 1, kinds });
      void layer.complete(ref, { name: 'id', value: '' });
      await settle();
      expect(limiter.inFlight).toBe(1);
    }
    const { layer, limiter, settle } = setup({ limit: 1, kinds: ['tool'] });
    void layer.complete(ref, { name: 'id', value: '' });
    await settle();
    expect(limiter.inFlight).toBe(0);
  });

  it('refuses limits that cannot work', () => {
    expect(() => new ConcurrencyLimitMiddleware({ limit: 0 })).toThrow(LayerConfigError);
    expect(() => new ConcurrencyLimitMiddleware({ perPrincipal: 1.5 })).toThrow(LayerConfigError);
    expect(() => new ConcurrencyLimitMiddleware({ queueTimeout: -1 })).toThrow(LayerConfigError);
  });
});
