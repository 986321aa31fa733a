import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AccessDeniedError } from '../errors.js';
import { Layer } from '../layer/layer.js';
import type { PolicyPort } from '../policy-port.js';
import { Principal } from '../principal.js';
import { Registry } from '../registry.js';
import { ToolResult } from '../results.js';
import type { AnySpec } from '../specs/index.js';
import { CachingMiddleware, type CachingOptions } from './cache.js';

const quiet = pino({ level: 'silent' });

/** A policy whose denials can be switched on between calls; records every check. */
class SwitchPolicy implements PolicyPort {
  readonly name = 'switch';
  denying = false;
  readonly checks: string[] = [];
  isAllowed = () => true;
  checkCall(spec: AnySpec): void {
    this.checks.push(spec.name);
    if (this.denying) throw new AccessDeniedError('Access denied by policy switch');
  }
  outputPipeline = () => undefined;
  inputPipeline = () => undefined;
}

function setup(options: CachingOptions = {}) {
  const policy = new SwitchPolicy();
  const runs: Record<string, number> = {};
  const count = (name: string) => {
    runs[name] = (runs[name] ?? 0) + 1;
    return runs[name];
  };
  const registry = new Registry();
  registry.tool({
    name: 'get_asset',
    readOnly: true,
    idempotent: true,
    input: { ref: z.string(), depth: z.number().optional() },
    handler: (_ctx, args) => ({ ref: args.ref, run: count('get_asset') }),
  });
  registry.tool({
    name: 'flaky_read',
    readOnly: true,
    idempotent: true,
    handler: () =>
      ToolResult.error('try later', { 'cloudg/error_code': 'unavailable', run: count('flaky_read') }),
  });
  registry.tool({ name: 'now', readOnly: true, idempotent: false, handler: () => ({ run: count('now') }) });
  registry.tool({ name: 'update', readOnly: false, handler: () => ({ run: count('update') }) });
  registry.resource({ uri: 'test://summary', name: 'summary', handler: () => ({ run: count('summary') }) });
  registry.resourceTemplate({
    name: 'item',
    uriTemplate: 'test://items/{id}',
    completions: { id: () => [`c${count('completion')}`] },
    handler: (_ctx, vars) => ({ id: vars.id }),
  });
  const cache = new CachingMiddleware(options);
  const layer = new Layer({ registry, policy, middleware: [cache.middleware], logger: quiet });
  return { layer, cache, policy, runs };
}

describe('CachingMiddleware', () => {
  it('serves a repeated read-only idempotent call from the cache, marked as a hit', async () => {
    const { layer, cache, runs } = setup();
    const first = await layer.callTool('get_asset', { ref: 'web-1' });
    const second = await layer.callTool('get_asset', { ref: 'web-1' });
    expect(runs.get_asset).toBe(1);
    expect(first.meta['cloudg/cache']).toBeUndefined();
    expect(second.meta['cloudg/cache']).toBe('hit');
    expect(second.structured).toEqual({ ref: 'web-1', run: 1 });
    expect(cache.stats()).toEqual({ size: 1, hits: 1, misses: 1, ttl: 60 });
  });

  it('hits are deep copies: changing one does not change the next', async () => {
    const { layer } = setup();
    await layer.callTool('get_asset', { ref: 'web-1' });
    const hit = await layer.callTool('get_asset', { ref: 'web-1' });
    (hit.structured as { ref: string }).ref = 'changed';
    hit.meta.extra = true;
    const again = await layer.callTool('get_asset', { ref: 'web-1' });
    expect(again.structured).toEqual({ ref: 'web-1', run: 1 });
    expect(again.meta.extra).toBeUndefined();
  });

  it('keys on the arguments in canonical form: key order does not matter, values do', async () => {
    const { layer, runs } = setup();
    await layer.callTool('get_asset', { ref: 'a', depth: 1 });
    const reordered = await layer.callTool('get_asset', { depth: 1, ref: 'a' });
    expect(reordered.meta['cloudg/cache']).toBe('hit');
    await layer.callTool('get_asset', { ref: 'a', depth: 2 });
    await layer.callTool('get_asset', { ref: 'b', depth: 1 });
    expect(runs.get_asset).toBe(3);
  });

  it('runs the policy check on a hit, so a denial after the first call refuses the cached one', async () => {
    const { layer, policy } = setup();
    await layer.callTool('get_asset', { ref: 'web-1' });
    expect(policy.checks).toEqual(['get_asset']);
    await layer.callTool('get_asset', { ref: 'web-1' });
    expect(policy.checks).toEqual(['get_asset', 'get_asset']);
    policy.denying = true;
    const refused = await layer.callTool('get_asset', { ref: 'web-1' });
    expect(refused.isError).toBe(true);
    expect(refused.meta['cloudg/error_code']).toBe(-31001);
    expect(refused.meta['cloudg/cache']).toBeUndefined();
  });

  it('does not share entries between principals or role sets', async () => {
    const { layer, runs } = setup();
    const alice = new Principal({ id: 'alice', roles: ['analyst'] });
    const bob = new Principal({ id: 'bob', roles: ['analyst'] });
    const aliceAdmin = new Principal({ id: 'alice', roles: ['admin'] });
    for (const principal of [alice, bob, aliceAdmin, alice]) {
      await layer.callTool('get_asset', { ref: 'web-1' }, { principal });
    }
    expect(runs.get_asset).toBe(3);
  });

  it('does not cache error results', async () => {
    const { layer, runs } = setup();
    await layer.callTool('flaky_read');
    const second = await layer.callTool('flaky_read');
    expect(runs.flaky_read).toBe(2);
    expect(second.meta['cloudg/cache']).toBeUndefined();
  });

  it('caches only read-only and idempotent tools by default', async () => {
    const { layer, runs } = setup();
    await layer.callTool('now');
    await layer.callTool('now');
    expect(runs.now).toBe(2);
  });

  it('any call to a tool that is not read-only clears the whole cache', async () => {
    const { layer, cache, runs } = setup();
    await layer.callTool('get_asset', { ref: 'a' });
    await layer.callTool('get_asset', { ref: 'b' });
    expect(cache.stats().size).toBe(2);
    await layer.callTool('update');
    expect(cache.stats().size).toBe(0);
    await layer.callTool('get_asset', { ref: 'a' });
    expect(runs.get_asset).toBe(3);
  });

  it('resources are cached only with cacheResources; completions never', async () => {
    const plain = setup();
    await plain.layer.readResource('test://summary');
    await plain.layer.readResource('test://summary');
    expect(plain.runs.summary).toBe(2);

    const withResources = setup({ cacheResources: true });
    await withResources.layer.readResource('test://summary');
    const [hit] = await withResources.layer.readResource('test://summary');
    expect(withResources.runs.summary).toBe(1);
    expect(hit?._meta).toEqual({ 'cloudg/cache': 'hit' });

    const everything = setup({ predicate: () => true, cacheResources: true });
    const ref = { type: 'ref/resource', uri: 'test://items/{id}' } as const;
    await everything.layer.complete(ref, { name: 'id', value: '' });
    const again = await everything.layer.complete(ref, { name: 'id', value: '' });
    expect(again.values).toEqual(['c2']);
  });

  it('a predicate replaces the default test', async () => {
    const { layer, runs } = setup({ predicate: (info) => info.name === 'now' });
    await layer.callTool('now');
    await layer.callTool('now');
    await layer.callTool('get_asset', { ref: 'a' });
    await layer.callTool('get_asset', { ref: 'a' });
    expect(runs).toMatchObject({ now: 1, get_asset: 2 });
  });

  it('attach clears the cache on every layer change event; invalidate clears by hand', async () => {
    const { layer, cache } = setup();
    const detach = cache.attach(layer);
    await layer.callTool('get_asset', { ref: 'a' });
    layer.notifyChange('resource', 'test://summary');
    expect(cache.stats().size).toBe(0);
    detach();
    await layer.callTool('get_asset', { ref: 'a' });
    layer.notifyChange('tools');
    expect(cache.stats().size).toBe(1);
    cache.invalidate();
    expect(cache.stats().size).toBe(0);
  });

  describe('expiry and eviction', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('entries expire after ttl seconds', async () => {
      const { layer, runs, cache } = setup({ ttl: 10 });
      await layer.callTool('get_asset', { ref: 'a' });
      vi.advanceTimersByTime(9_999);
      expect((await layer.callTool('get_asset', { ref: 'a' })).meta['cloudg/cache']).toBe('hit');
      vi.advanceTimersByTime(1);
      expect((await layer.callTool('get_asset', { ref: 'a' })).meta['cloudg/cache']).toBeUndefined();
      expect(runs.get_asset).toBe(2);
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, ttl: 10 });
    });

    it('the least recently used entry goes when maxsize is exceeded', async () => {
      const { layer, runs, cache } = setup({ maxsize: 2 });
      await layer.callTool('get_asset', { ref: 'a' });
      await layer.callTool('get_asset', { ref: 'b' });
      await layer.callTool('get_asset', { ref: 'a' }); // a is now the most recently used
      await layer.callTool('get_asset', { ref: 'c' }); // evicts b
      expect(cache.stats().size).toBe(2);
      await layer.callTool('get_asset', { ref: 'a' });
      expect(runs.get_asset).toBe(3);
      await layer.callTool('get_asset', { ref: 'b' });
      expect(runs.get_asset).toBe(4);
    });
  });
});
