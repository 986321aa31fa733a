/** @isolated it replaces performance.now for a while. */
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AccessDeniedError } from '../errors.js';
import { Layer } from '../layer/layer.js';
import type { PolicyPort } from '../policy-port.js';
import { Registry } from '../registry.js';
import type { AnySpec } from '../specs/index.js';
import { LATENCY_WINDOW, MetricsMiddleware, registerMetricsResource, TimingMiddleware } from './metrics.js';
import type { Middleware } from './types.js';

const quiet = pino({ level: 'silent' });
const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

const denyForbidden: PolicyPort = {
  name: 'test',
  isAllowed: () => true,
  checkCall(spec: AnySpec) {
    if (spec.name === 'forbidden') throw new AccessDeniedError('Access denied by policy test');
  },
  outputPipeline: () => undefined,
  inputPipeline: () => undefined,
};

function testLayer(...middleware: Middleware[]): Layer {
  const registry = new Registry();
  registry.tool({
    name: 'get_asset',
    input: { ref: z.string() },
    handler: (_ctx, args) => ({ ref: args.ref }),
  });
  registry.tool({ name: 'load_dataset', handler: () => ({ loaded: true }) });
  registry.tool({ name: 'forbidden', handler: () => ({}) });
  registry.tool({
    name: 'crash',
    handler: () => {
      throw new Error('boom');
    },
  });
  registry.resource({ uri: 'test://summary', name: 'summary', handler: () => ({ assets: 3 }) });
  registry.resourceTemplate({
    uriTemplate: 'test://assets/{ref}',
    name: 'asset',
    handler: (_ctx, vars) => ({ ref: vars.ref }),
  });
  return new Layer({ registry, policy: denyForbidden, middleware, logger: quiet });
}

describe('MetricsMiddleware', () => {
  it('counts calls per primitive and serves the snapshot as cloudg://metrics', async () => {
    const metrics = new MetricsMiddleware();
    const layer = testLayer(metrics.middleware);
    const spec = registerMetricsResource(layer, metrics);
    expect(spec.toWire()._meta).toEqual({ 'cloudg/category': 'server', 'cloudg/sensitivity': 'internal' });

    await layer.callTool('load_dataset');
    await layer.callTool('get_asset', { ref: 'a' });
    await layer.callTool('get_asset', { ref: 'b' });
    await layer.readResource('test://summary');
    // Reads of one template count together, whatever they named.
    await layer.readResource('test://assets/web-1');
    await layer.readResource('test://assets/db-1');

    const [contents] = await layer.readResource('cloudg://metrics');
    expect(contents).toMatchObject({ uri: 'cloudg://metrics', mimeType: 'application/json' });
    const snapshot = JSON.parse((contents as { text: string }).text);
    const timing = {
      avg_ms: expect.any(Number),
      p95_ms: expect.any(Number),
      max_ms: expect.any(Number),
      last_call: expect.stringMatching(ISO_SECONDS),
    };
    expect(snapshot).toEqual({
      uptime_seconds: expect.any(Number),
      calls: 6,
      errors: 0,
      rejected: 0,
      by_primitive: {
        'resource:test://assets/{ref}': { calls: 2, errors: 0, rejected: 0, ...timing },
        'resource:test://summary': { calls: 1, errors: 0, rejected: 0, ...timing },
        'tool:get_asset': { calls: 2, errors: 0, rejected: 0, ...timing },
        'tool:load_dataset': { calls: 1, errors: 0, rejected: 0, ...timing },
      },
    });
    expect(Object.keys(snapshot.by_primitive)).toEqual(Object.keys(snapshot.by_primitive).sort());
    const getAsset = snapshot.by_primitive['tool:get_asset'];
    expect(getAsset.max_ms).toBeGreaterThanOrEqual(getAsset.avg_ms);
    expect(getAsset.p95_ms).toBe(getAsset.max_ms); // nearest rank of two samples is the larger
    // The read of cloudg://metrics itself shows up in the next snapshot.
    expect(metrics.snapshot().by_primitive['resource:cloudg://metrics']?.calls).toBe(1);
  });

  it('counts error results and exceptions as errors, layer errors as rejected', async () => {
    const metrics = new TimingMiddleware();
    const throwing: Middleware = async (info, next) => {
      if (info.arguments.ref === 'raise') throw new RangeError('bug in middleware');
      return next(info);
    };
    const layer = testLayer(metrics.middleware, throwing);
    await layer.callTool('crash'); // handler exception: a handler_error result
    await layer.callTool('get_asset', { ref: 'raise' }); // unexpected exception in the chain
    await layer.callTool('forbidden'); // denial
    await layer.callTool('get_asset', { ref: 5 }); // invalid arguments
    await expect(layer.readResource('test://missing')).rejects.toThrow(); // unknown: never reaches middleware

    const snapshot = metrics.snapshot();
    expect(snapshot).toMatchObject({ calls: 4, errors: 2, rejected: 2 });
    expect(snapshot.by_primitive['tool:crash']).toMatchObject({ calls: 1, errors: 1, rejected: 0 });
    expect(snapshot.by_primitive['tool:forbidden']).toMatchObject({ calls: 1, errors: 0, rejected: 1 });
    expect(snapshot.by_primitive['tool:get_asset']).toMatchObject({ calls: 2, errors: 1, rejected: 1 });
  });

  it('keeps p95 over the last 256 calls, max and average over all of them', async () => {
    const metrics = new MetricsMiddleware();
    let delay = 0;
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const timed: Middleware = async (info, next) => {
        now += delay;
        return next(info);
      };
      const layer = testLayer(metrics.middleware, timed);
      delay = 100;
      await layer.callTool('load_dataset');
      delay = 1;
      for (let i = 0; i < LATENCY_WINDOW; i++) await layer.callTool('load_dataset');
    } finally {
      clock.mockRestore();
    }
    const stats = metrics.snapshot().by_primitive['tool:load_dataset']!;
    expect(stats.calls).toBe(LATENCY_WINDOW + 1);
    expect(stats.max_ms).toBe(100);
    expect(stats.p95_ms).toBe(1); // the 100 ms call has left the window
    expect(stats.avg_ms).toBe(Math.round(((100 + LATENCY_WINDOW) / (LATENCY_WINDOW + 1)) * 100) / 100);
  });

  it('reset clears every figure', async () => {
    const metrics = new MetricsMiddleware();
    const layer = testLayer(metrics.middleware);
    await layer.callTool('load_dataset');
    metrics.reset();
    expect(metrics.snapshot()).toMatchObject({ calls: 0, errors: 0, rejected: 0, by_primitive: {} });
  });

  it('registers into a registry, replacing by default and refusing a duplicate when asked', () => {
    const registry = new Registry();
    const metrics = new MetricsMiddleware();
    registerMetricsResource(registry, metrics);
    registerMetricsResource(registry, metrics);
    expect(registry.resources.has('cloudg://metrics')).toBe(true);
    expect(() => registerMetricsResource(registry, metrics, { replace: false })).toThrow(
      /already registered/,
    );
    registerMetricsResource(registry, metrics, { uri: 'cloudg://stats' });
    expect(registry.resources.get('cloudg://stats')?.category).toBe('server');
  });

  it('tells layer listeners that the resource list changed', () => {
    const layer = testLayer();
    const events: string[] = [];
    layer.onChange((kind) => events.push(kind));
    registerMetricsResource(layer, new MetricsMiddleware());
    expect(events).toEqual(['resources']);
  });

  it('tells observers about every call it counts, with the spec and what was thrown', async () => {
    const metrics = new MetricsMiddleware();
    const layer = testLayer(metrics.middleware);
    const seen: Array<[string, string, string, string]> = [];
    const stop = metrics.observe((call) => {
      seen.push([call.kind, call.name, call.spec.name, call.outcome]);
      expect(call.durationMs).toBeGreaterThanOrEqual(0);
      if (call.outcome === 'rejected') expect(call.error).toBeInstanceOf(AccessDeniedError);
    });
    metrics.observe(() => {
      throw new Error('a broken exporter');
    });
    await layer.callTool('get_asset', { ref: 'a' });
    await layer.callTool('forbidden');
    await layer.callTool('crash');
    await layer.readResource('test://summary');
    stop();
    await layer.callTool('load_dataset');
    expect(seen).toEqual([
      ['tool', 'get_asset', 'get_asset', 'ok'],
      ['tool', 'forbidden', 'forbidden', 'rejected'],
      ['tool', 'crash', 'crash', 'error'],
      ['resource', 'test://summary', 'summary', 'ok'],
    ]);
    expect(metrics.snapshot().calls).toBe(5);
  });
});
