/** /healthz and /readyz report the services the server depends on (Redis for shared state). */
import { afterEach, describe, expect, it } from 'vitest';
import type { DependencyCheck } from '../src/index.js';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { send } from './support/http.js';
import { buildLayer } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('dependency checks', () => {
  it('liveness reports a dependency that is down and stays 200; readiness answers 503 until it is back', async () => {
    let redis: DependencyCheck = { ok: false, error: 'connect ECONNREFUSED' };
    running = await serveHttp(buildLayer(), { port: 0, dependencies: async () => ({ redis }) });
    const health = await send(running.port, { method: 'GET', path: '/healthz' });
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({
      status: 'ok',
      checks: { redis: { ok: false, error: 'connect ECONNREFUSED' } },
    });
    const down = await send(running.port, { method: 'GET', path: '/readyz' });
    expect(down.status).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { redis } });
    expect(down.headers['retry-after']).toBe('1');
    redis = { ok: true, latency_ms: 0.2 };
    const up = await send(running.port, { method: 'GET', path: '/readyz' });
    expect(up.status).toBe(200);
    expect(up.json()).toEqual({ status: 'ready', checks: { redis: { ok: true, latency_ms: 0.2 } } });
  });

  it('a probe that throws is a failed check, not a failed endpoint', async () => {
    running = await serveHttp(buildLayer(), {
      port: 0,
      dependencies: () => Promise.reject(new Error('probe broke')),
    });
    const ready = await send(running.port, { method: 'GET', path: '/readyz' });
    expect(ready.status).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      checks: { checks: { ok: false, error: 'probe broke' } },
    });
  });
});
