import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  type CallInfo,
  Cancellation,
  CancelledError,
  Layer,
  type Middleware,
  NotFoundError,
  Principal,
  Registry,
  ToolResult,
} from '../src/index.js';
import { TRUNCATION_MARKER } from '../src/layer/finalize.js';
import { MaskingPipeline, RecordingPolicy, ReversingPipeline, type TestApp, testLayer } from './helpers.js';

function captureLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/**
 * A layer with one tool, `poll`, that works in 10 ms steps checking its signal, for up to 10 s.
 * `started` settles when the handler runs; `stopped` when it returns, with `aborted` if its
 * signal ended it and `finished` if it ran to the end.
 */
function pollingLayer(spec: { timeoutSeconds?: number } = {}) {
  let markStarted!: () => void;
  let markStopped!: (how: 'aborted' | 'finished') => void;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const stopped = new Promise<'aborted' | 'finished'>((resolve) => {
    markStopped = resolve;
  });
  const registry = new Registry();
  registry.tool({
    name: 'poll',
    ...spec,
    handler: async (ctx) => {
      markStarted();
      const until = Date.now() + 10_000;
      try {
        while (Date.now() < until) {
          ctx.throwIfAborted();
          await new Promise((r) => setTimeout(r, 10));
        }
      } catch (error) {
        markStopped(ctx.signal.aborted ? 'aborted' : 'finished');
        throw error;
      }
      markStopped('finished');
      return { done: true };
    },
  });
  return { layer: new Layer({ registry }), started, stopped };
}

describe('tools/call lifecycle (section 4.1)', () => {
  it('step 4: an unknown tool is the only failure that throws, -32602 with the name in data', async () => {
    const policy = new RecordingPolicy();
    const layer = testLayer({ policy });
    const error = await layer.callTool('nope', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: -32602, message: 'Unknown tool: nope', data: { name: 'nope' } });
    expect(policy.hiddenCalls).toEqual([{ kind: 'tool', name: 'nope' }]);
  });

  it('step 4: a hidden tool is indistinguishable from an unknown one, and is recorded', async () => {
    const policy = new RecordingPolicy({ hidden: ['reset'] });
    const layer = testLayer({ policy });
    const hidden = await layer.callTool('reset').catch((e: unknown) => e);
    const unknown = await layer.callTool('nope').catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(NotFoundError);
    expect((hidden as NotFoundError).toJsonRpc()).toEqual({
      code: -32602,
      message: 'Unknown tool: reset',
      data: { name: 'reset' },
    });
    expect(Object.getPrototypeOf(hidden)).toBe(Object.getPrototypeOf(unknown));
    expect(policy.hiddenCalls.map((c) => c.name)).toEqual(['reset', 'nope']);
    expect(layer.toolsWire().map((t) => t.name)).not.toContain('reset');
  });

  it('step 4: with a prefix only prefixed names resolve', async () => {
    const layer = testLayer({ prefix: 'cloudg_' });
    const ok = await layer.callTool('cloudg_echo', { text: 'hi' });
    expect(ok.structured).toEqual({ echo: 'hi' });
    await expect(layer.callTool('echo', { text: 'hi' })).rejects.toThrow('Unknown tool: echo');
    expect(layer.toolsWire()[0]!.name).toBe('cloudg_echo');
    expect(layer.promptsWire().map((p) => p.name)).toContain('cloudg_greet');
  });

  it('step 5: middleware runs outermost first with the call info, and use() appends innermost', async () => {
    const order: string[] = [];
    let seen: CallInfo<TestApp> | undefined;
    const mw =
      (label: string): Middleware<TestApp> =>
      async (info, next) => {
        order.push(`${label}>`);
        seen ??= info;
        const result = await next(info);
        order.push(`<${label}`);
        return result;
      };
    const layer = testLayer({ middleware: [mw('outer')] });
    layer.use(mw('inner'));
    await layer.callTool('echo', { text: 'x' }, { requestId: 7 });
    expect(order).toEqual(['outer>', 'inner>', '<inner', '<outer']);
    expect(seen).toMatchObject({ kind: 'tool', name: 'echo', arguments: { text: 'x' } });
    expect(seen!.principal.id).toBe('local');
    expect(seen!.context.requestId).toBe(7);
    expect(typeof seen!.started).toBe('number');
  });

  it('step 5: middleware may refuse a call with an McpLayerError, which becomes an error result', async () => {
    const officeHours: Middleware<TestApp> = async (info, next) => {
      if (info.principal.hasRole('contractor')) {
        throw new AccessDeniedError('Contractors can call tools between 08:00 and 18:00', {
          data: { hour: 20 },
        });
      }
      const result = await next(info);
      if (result instanceof ToolResult)
        result.meta['example.com/request-label'] = `${info.kind}:${info.name}`;
      return result;
    };
    const layer = testLayer({ middleware: [officeHours] });
    const contractor = new Principal({ id: 'c', roles: ['contractor'] });
    const refused = await layer.callTool('echo', { text: 'x' }, { principal: contractor });
    expect(refused.toWire()).toEqual({
      content: [{ type: 'text', text: 'Contractors can call tools between 08:00 and 18:00' }],
      isError: true,
      _meta: { 'cloudg/error_code': -31001, 'cloudg/error_data': { hour: 20 } },
    });
    const ok = await layer.callTool('echo', { text: 'x' });
    expect(ok.meta['example.com/request-label']).toBe('tool:echo');
  });

  it('step 6: a policy denial is an error result with -31001 and the reason', async () => {
    const policy = new RecordingPolicy({ denied: ['reset'] });
    const result = await testLayer({ policy }).callTool('reset');
    expect(result.toWire()).toEqual({
      content: [
        { type: 'text', text: "Access to tool 'reset' denied: category 'admin' denied by policy 'doc-demo'" },
      ],
      isError: true,
      _meta: {
        'cloudg/error_code': -31001,
        'cloudg/error_data': { policy: 'doc-demo', reason: "category 'admin' denied by policy 'doc-demo'" },
      },
    });
    expect(policy.checks).toEqual([{ spec: 'reset', call: { kind: 'tool', name: 'reset', arguments: {} } }]);
  });

  it('step 6: a rate limit is an error result with -31029 and retry data', async () => {
    const result = await testLayer({ policy: new RecordingPolicy({ limited: ['echo'] }) }).callTool('echo', {
      text: 'a',
    });
    expect(result.toWire()).toEqual({
      content: [{ type: 'text', text: "Rate limit exceeded for tool 'echo' (1/minute); retry in 60.0s" }],
      isError: true,
      _meta: {
        'cloudg/error_code': -31029,
        'cloudg/error_data': { retry_after: 60.0, limit: '1/minute', scope: 'principal' },
      },
    });
  });

  it('step 7: the input pipeline runs before validation and a refusal is recorded as a rejection', async () => {
    const policy = new RecordingPolicy({ input: new ReversingPipeline() });
    const layer = testLayer({ policy });
    const restored = await layer.callTool('echo', { text: 'alias-web' });
    expect(restored.structured).toEqual({ echo: 'real-web' });
    const refused = await layer.callTool('echo', { text: 'password=hunter2' });
    expect(refused.isError).toBe(true);
    expect(refused.meta['cloudg/error_code']).toBe(-32602);
    expect(refused.content).toEqual([
      { type: 'text', text: 'Argument refused: it looks like it contains a secret' },
    ]);
    expect(policy.rejections).toEqual([{ spec: 'echo', code: -32602 }]);
  });

  it('step 8: invalid arguments list every problem as {loc, msg, type} without echoing values', async () => {
    const result = await testLayer().callTool('find_assets', { limit: 0, colour: 'red' });
    expect(result.toWire()).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments: limit: Input should be greater than or equal to 1; colour: Extra inputs are not permitted. Valid arguments: query, limit, internet_exposed',
        },
      ],
      isError: true,
      _meta: {
        'cloudg/error_code': -32602,
        'cloudg/error_data': [
          { loc: 'limit', msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' },
          { loc: 'colour', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
        ],
      },
    });
    expect(JSON.stringify(result.toWire())).not.toContain('red');
  });

  it('step 8: defaults are filled in and numeric strings coerced', async () => {
    const layer = testLayer();
    expect((await layer.callTool('find_assets', {})).structured).toMatchObject({ limit: 50 });
    expect(
      (await layer.callTool('find_assets', { limit: '5', internet_exposed: 'true' })).structured,
    ).toMatchObject({
      limit: 5,
      exposed: true,
    });
    const bad = await layer.callTool('find_assets', { limit: 'five' });
    expect(bad.meta['cloudg/error_data']).toEqual([
      {
        loc: 'limit',
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
      },
    ]);
  });

  it('step 9: a timeout answers with error code "timeout" and aborts the handler signal so it stops', async () => {
    const { layer, stopped } = pollingLayer({ timeoutSeconds: 0.1 });
    const result = await layer.callTool('poll', {});
    expect(result.toWire()).toEqual({
      content: [{ type: 'text', text: 'Tool poll timed out' }],
      isError: true,
      _meta: { 'cloudg/error_code': 'timeout' },
    });
    // The handler checked its signal and stopped, long before its own end.
    expect(await stopped).toBe('aborted');
  });

  it('step 9: the layer default timeout applies when the tool has none, and 0 disables it', async () => {
    const withDefault = testLayer({ defaultTimeout: 0.05 });
    const echo = await withDefault.callTool('echo', { text: 'quick' });
    expect(echo.isError).toBe(false);
    expect(withDefault.defaultTimeout).toBe(0.05);
    expect(testLayer({ defaultTimeout: 0 }).defaultTimeout).toBe(0);
    expect(testLayer().defaultTimeout).toBe(300);
  });

  it('step 9: a deadline beyond what timers can hold (about 24.8 days) means no deadline, not an instant one', async () => {
    const layer = testLayer({ defaultTimeout: 3_000_000 });
    const result = await layer.callTool('slow', { seconds: 0.05 });
    expect(result.isError).toBe(false);
  });

  it('step 9: a caller cancellation aborts the handler signal', async () => {
    const layer = testLayer();
    const controller = new AbortController();
    const pending = layer.callTool('slow', { seconds: 0.05 }, { signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe(-32800);
  });

  it('step 9: a Cancellation cancels like a signal, and the handler still gets a working signal', async () => {
    const { layer, started, stopped } = pollingLayer();
    const cancellation = new Cancellation();
    const pending = layer.callTool('poll', {}, { signal: cancellation });
    await started;
    cancellation.abort(new CancelledError('Request cancelled'));
    const result = await pending;
    expect(result.meta['cloudg/error_code']).toBe(-32800);
    // The tool polls ctx.signal: it saw the cancellation and stopped.
    expect(await stopped).toBe('aborted');
  });

  it('step 9: a call already cancelled when it reaches the handler does not run it', async () => {
    let runs = 0;
    const registry = new Registry();
    registry.tool({
      name: 'count',
      handler: () => {
        runs += 1;
        return { runs };
      },
    });
    const layer = new Layer({ registry });
    const cancellation = new Cancellation();
    cancellation.abort(new CancelledError('Request cancelled'));
    const result = await layer.callTool('count', {}, { signal: cancellation });
    expect(result.meta['cloudg/error_code']).toBe(-32800);
    expect(runs).toBe(0);
    // And a synchronous handler that throws is a handler_error result, as an async one is.
    registry.tool({
      name: 'throws',
      handler: () => {
        throw new Error('sync failure');
      },
    });
    const thrown = await layer.callTool('throws', {});
    expect(thrown.isError).toBe(true);
    expect(thrown.meta['cloudg/error_code']).toBe('handler_error');
  });

  it('step 10: a non-object result is wrapped as {"result": value}', async () => {
    const result = await testLayer().callTool('numbers');
    expect(result.structured).toEqual({ result: [1, 2, 3] });
    expect(result.content).toEqual([{ type: 'text', text: '{"result":[1,2,3]}' }]);
  });

  it('steps 11-13: plain results: output pipeline, compact JSON text, report, duration', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const result = await layer.callTool('echo', { text: 'secret-abc ' });
    expect(result.structured).toEqual({ echo: '[REDACTED] ' });
    expect(result.content).toEqual([{ type: 'text', text: '{"echo":"[REDACTED] "}' }]);
    expect(result.meta['cloudg/transforms']).toEqual({ redacted: { secret: 1 } });
    expect(typeof result.meta['cloudg/duration_ms']).toBe('number');
  });

  it('prettyJson indents the text block by two spaces; structuredContent is the same either way', async () => {
    const compact = await testLayer().callTool('numbers');
    const indented = await testLayer({ prettyJson: true }).callTool('numbers');
    expect(indented.content).toEqual([
      { type: 'text', text: '{\n  "result": [\n    1,\n    2,\n    3\n  ]\n}' },
    ]);
    expect(indented.structured).toEqual(compact.structured);
    const masked = testLayer({
      prettyJson: true,
      policy: new RecordingPolicy({ output: new MaskingPipeline() }),
    });
    const echo = await masked.callTool('echo', { text: 'secret-abc ' });
    expect(echo.content).toEqual([{ type: 'text', text: '{\n  "echo": "[REDACTED] "\n}' }]);
  });

  it('step 11: a handler-built ToolResult has structured, text, embedded text, links and _meta transformed', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const wire = (await layer.callTool('custom_result')).toWire();
    expect(wire.structuredContent).toEqual({ count: 2, note: '[REDACTED]' });
    expect(wire.content).toEqual([
      { type: 'text', text: 'two assets, [REDACTED]' },
      {
        type: 'resource',
        resource: { uri: 'test://items/beta', mimeType: 'text/plain', text: 'beta [REDACTED]' },
      },
      // Images are not transformed.
      { type: 'image', data: 'c2VjcmV0LWltZw==', mimeType: 'image/png' },
      {
        type: 'resource_link',
        uri: 'test://items/alpha',
        name: 'alpha [REDACTED]',
        mimeType: 'application/json',
      },
    ]);
    const meta = wire._meta as Record<string, unknown>;
    expect(meta['example.com/label']).toBe('[REDACTED]');
    expect(meta['cloudg/transforms']).toEqual({ redacted: { secret: 5 } });
  });

  it('step 12: the text block is cut at max_output_chars with the marker and truncated_chars', async () => {
    const layer = testLayer({ maxOutputChars: 100 });
    const result = await layer.callTool('big', { size: 500 });
    const text = (result.content[0] as { text: string }).text;
    const full = JSON.stringify({ data: 'x'.repeat(500) });
    expect(text).toBe(full.slice(0, 100) + TRUNCATION_MARKER);
    expect(text.endsWith('... [truncated by cloudg mcp layer]')).toBe(true);
    expect(result.meta['cloudg/transforms']).toEqual({ truncated_chars: full.length - 100 });
    // The structured value itself is not cut.
    expect((result.structured as { data: string }).data).toHaveLength(500);
  });

  it('step 13: links from ctx.link are appended as resource_link blocks', async () => {
    const result = await testLayer().callTool('custom_result');
    expect(result.content.at(-1)).toEqual({
      type: 'resource_link',
      uri: 'test://items/alpha',
      name: 'alpha secret-link',
      mimeType: 'application/json',
    });
  });
});

describe('tool errors (section 13.1 and 13.3)', () => {
  it('an unexpected exception becomes handler_error with "Type: message"; the stack goes to the log only', async () => {
    const { logger, lines } = captureLogger();
    const result = await testLayer({ logger }).callTool('boom');
    expect(result.toWire()).toEqual({
      content: [
        {
          type: 'text',
          text: 'RuntimeError: could not reach arn:aws:iam::123456789012:role/Deploy secret-token',
        },
      ],
      isError: true,
      _meta: { 'cloudg/error_code': 'handler_error' },
    });
    const logged = lines.find((l) => l.msg === 'Tool boom failed');
    expect(logged).toBeDefined();
    expect(String((logged!.err as { stack: string }).stack)).toContain('RuntimeError');
    expect(JSON.stringify(result.toWire())).not.toContain('at ');
  });

  it('under a transforming policy the error text and data go through the output pipeline', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const boom = await layer.callTool('boom');
    expect(boom.content).toEqual([
      {
        type: 'text',
        text: 'RuntimeError: could not reach arn:aws:iam::123456789012:role/Deploy [REDACTED]',
      },
    ]);
    const missing = await layer.callTool('missing_thing');
    expect(missing.toWire()).toEqual({
      content: [{ type: 'text', text: 'No asset matches the reference in this dataset.' }],
      isError: true,
      _meta: { 'cloudg/error_code': -32602, 'cloudg/error_data': { value: '[REDACTED]', suggestions: [] } },
    });
  });

  it('an McpLayerError raised by a handler keeps its code and data', async () => {
    const result = await testLayer().callTool('missing_thing');
    expect(result.meta).toEqual({
      'cloudg/error_code': -32602,
      'cloudg/error_data': { value: 'secret-x', suggestions: [] },
    });
  });

  it('a middleware that throws something unexpected still yields a result, never a crash', async () => {
    const layer = testLayer({
      middleware: [
        async () => {
          throw new RangeError('middleware bug');
        },
      ],
    });
    const result = await layer.callTool('echo', { text: 'x' });
    expect(result.toWire()).toMatchObject({ isError: true, _meta: { 'cloudg/error_code': 'handler_error' } });
    expect(result.content).toEqual([{ type: 'text', text: 'RangeError: middleware bug' }]);
  });

  it('arguments that are not an object are invalid arguments', async () => {
    const result = await testLayer().callTool('echo', 'oops' as never);
    expect(result.meta['cloudg/error_code']).toBe(-32602);
    expect(result.content).toEqual([{ type: 'text', text: 'arguments must be an object' }]);
  });
});

describe('progress and logs (section 10.5)', () => {
  it('drops progress values that do not increase and forwards logs', async () => {
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    const layer = testLayer();
    const result = await layer.callTool(
      'progress',
      { steps: 2 },
      {
        onProgress: (p, t, m) => progress.push([p, t, m]),
        onLog: (level, data, name) => logs.push([level, data, name]),
      },
    );
    expect(result.isError).toBe(false);
    expect(progress).toEqual([
      [1, 2, 'step 1'],
      [2, 2, 'step 2'],
    ]);
    expect(logs).toEqual([['notice', { done: 2 }, 'cloudg']]);
  });

  it('unknown log levels become info', async () => {
    const logs: unknown[] = [];
    const layer = testLayer();
    const ctx = layer.context(Principal.local(), { onLog: (l) => logs.push(l) });
    await ctx.log('shouting', 'x');
    expect(logs).toEqual(['info']);
  });
});
