/**
 * Load shedding: requests beyond `maxInFlightRequests` wait their turn, and one that cannot start
 * within `maxQueueWaitMs` gets 503 with `Retry-After` and JSON-RPC -31029 at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { send } from './support/http.js';
import { modern } from './support/rpc.js';
import { buildLayer, buildRegistry } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A server whose `gate` tool blocks until released; `entered` resolves once it runs. */
async function gatedServer(options: Parameters<typeof serveHttp>[1]) {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const started = new Promise<void>((resolve) => (entered = resolve));
  const registry = buildRegistry();
  registry.tool({
    name: 'gate',
    description: 'Waits until the test opens the gate.',
    handler: async () => {
      entered();
      await opened;
      return { passed: true };
    },
  });
  running = await serveHttp(buildLayer({ registry }), { port: 0, jsonResponse: true, ...options });
  return { port: running.port, release, started };
}

const HEADERS = {
  accept: 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
};
const call = (port: number, id: number, name: string, args: Record<string, unknown> = {}) =>
  send(port, {
    headers: { ...HEADERS, 'mcp-name': name },
    body: modern(id, 'tools/call', { name, arguments: args }),
  });

describe('load shedding', () => {
  it('a request that cannot start within maxQueueWaitMs gets 503, Retry-After and -31029', async () => {
    const { port, release, started } = await gatedServer({ maxInFlightRequests: 1, maxQueueWaitMs: 1 });
    const first = call(port, 1, 'gate');
    await started;
    const shed = await call(port, 2, 'echo', { text: 'hi' });
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.headers['content-type']).toBe('application/json');
    expect(shed.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -31029,
        message: 'Server busy: too many concurrent MCP calls',
        data: { retry_after: 1, max_in_flight_requests: 1, max_queue_wait_ms: 1 },
      },
    });
    expect(running?.server.admission.shed).toBe(1);
    // The request holding the slot is unaffected, and once it is done the next one is served.
    release();
    expect((await first).json()).toMatchObject({ id: 1, result: { structuredContent: { passed: true } } });
    const after = await call(port, 3, 'echo', { text: 'again' });
    expect(after.status).toBe(200);
    expect(after.json()).toMatchObject({ id: 3, result: { structuredContent: { text: 'again' } } });
  });

  it('a waiting request is served when the slot frees within its wait', async () => {
    const { port, release, started } = await gatedServer({ maxInFlightRequests: 1, maxQueueWaitMs: 0 });
    const first = call(port, 1, 'gate');
    await started;
    const second = call(port, 2, 'echo', { text: 'queued' });
    // The second request is waiting (no limit on its wait) until the gate opens.
    await waitUntil(() => running?.server.admission.waiting === 1);
    release();
    expect((await first).status).toBe(200);
    const served = await second;
    expect(served.status).toBe(200);
    expect(served.json()).toMatchObject({ id: 2, result: { structuredContent: { text: 'queued' } } });
    expect(running?.server.admission.shed).toBe(0);
  });

  it('defaults: 128 requests in flight, a 1000 ms wait', async () => {
    running = await serveHttp(buildLayer(), { port: 0 });
    expect(running.server.options).toMatchObject({ maxInFlightRequests: 128, maxQueueWaitMs: 1000 });
  });
});

/** Poll a condition on the event loop (no fixed sleep): resolves once it holds. */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
