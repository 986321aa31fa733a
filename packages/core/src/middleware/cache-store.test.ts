/** The response cache's store port: two layers sharing one (asynchronous) store serve each other's results. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AccessDeniedError } from '../errors.js';
import { Layer } from '../layer/layer.js';
import type { PolicyPort } from '../policy-port.js';
import { Registry } from '../registry.js';
import type { AnySpec } from '../specs/index.js';
import { CachingMiddleware } from './cache.js';
import { type CachedResponse, InProcessResponseCache, type ResponseCacheStore } from './cache-store.js';

const quiet = pino({ level: 'silent' });

/** An in-process store behind promises and JSON text, as a store in another process answers. */
class RemoteLike implements ResponseCacheStore {
  readonly inner = new InProcessResponseCache(100);
  async get(key: string) {
    const hit = this.inner.get(key);
    return hit ? (JSON.parse(JSON.stringify(hit)) as CachedResponse) : undefined;
  }
  async set(key: string, response: CachedResponse, ttl: number) {
    this.inner.set(key, JSON.parse(JSON.stringify(response)) as CachedResponse, ttl);
  }
  async clear() {
    this.inner.clear();
  }
}

function replica(store: ResponseCacheStore, runs: { n: number }, deny: { on: boolean }) {
  const policy: PolicyPort = {
    name: 'p',
    isAllowed: () => true,
    checkCall: async (_spec: AnySpec) => {
      if (deny.on) throw new AccessDeniedError('denied here');
    },
    outputPipeline: () => undefined,
    inputPipeline: () => undefined,
  };
  const registry = new Registry();
  registry.tool({
    name: 'get_asset',
    readOnly: true,
    idempotent: true,
    input: { ref: z.string() },
    handler: (_ctx, args) => ({ ref: args.ref, run: ++runs.n }),
  });
  registry.tool({ name: 'update', readOnly: false, handler: () => ({ ok: true }) });
  const cache = new CachingMiddleware({ store });
  return new Layer({ registry, policy, middleware: [cache.middleware], logger: quiet });
}

describe('a shared response cache store', () => {
  it('serves on one layer what another cached, and a write on either clears it for both', async () => {
    const store = new RemoteLike();
    const runs = { n: 0 };
    const a = replica(store, runs, { on: false });
    const b = replica(store, runs, { on: false });
    await a.callTool('get_asset', { ref: 'web-1' });
    const hit = await b.callTool('get_asset', { ref: 'web-1' });
    expect(hit.meta['cloudg/cache']).toBe('hit');
    expect(hit.structured).toEqual({ ref: 'web-1', run: 1 });
    await b.callTool('update', {});
    const after = await a.callTool('get_asset', { ref: 'web-1' });
    expect(after.meta['cloudg/cache']).toBeUndefined();
    expect(runs.n).toBe(2);
  });

  it('checks the policy of the layer that serves a hit', async () => {
    const store = new RemoteLike();
    const runs = { n: 0 };
    await replica(store, runs, { on: false }).callTool('get_asset', { ref: 'web-1' });
    const refused = await replica(store, runs, { on: true }).callTool('get_asset', { ref: 'web-1' });
    expect(refused.isError).toBe(true);
    expect(refused.meta['cloudg/error_code']).toBe(-31001);
  });
});
