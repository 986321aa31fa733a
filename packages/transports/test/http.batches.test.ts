/**
 * Batch limits (2024-11-05 and 2025-03-26 sessions, the versions that allow batches): at most
 * `maxBatchItems` messages, and answers of at most `maxBatchResponseBytes`, over HTTP and stdio.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { StdioChild } from './support/child.js';
import { JSON_AND_SSE, send } from './support/http.js';
import { initialize, initialized, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
let child: StdioChild | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  child?.kill();
  child = undefined;
});

/** A 2025-03-26 session on a new server; returns the port and the headers that use the session. */
async function batchSession(options: Parameters<typeof serveHttp>[1] = {}) {
  running = await serveHttp(buildLayer(), { port: 0, ...options });
  const { port } = running;
  const init = await send(port, { headers: JSON_AND_SSE, body: initialize(1, '2025-03-26') });
  expect(init.status).toBe(200);
  const headers = {
    ...JSON_AND_SSE,
    'mcp-session-id': init.headers['mcp-session-id'] as string,
    'mcp-protocol-version': '2025-03-26',
  };
  expect((await send(port, { headers, body: initialized })).status).toBe(202);
  return { port, headers };
}

const echo = (id: number, text: string) => req(id, 'tools/call', { name: 'echo', arguments: { text } });

describe('batch limits over HTTP', () => {
  it('refuses a batch of more than maxBatchItems (default 100) with 413 before running any of it', async () => {
    const { port, headers } = await batchSession();
    const batch = Array.from({ length: 101 }, (_, i) => req(i + 10, 'ping'));
    const res = await send(port, { headers, body: batch });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Batch too large: 101 messages, the limit is 100 (maxBatchItems)',
        data: { limit: 100, items: 101, option: 'maxBatchItems' },
      },
    });
    // A batch at the limit is served.
    const full = await send(port, { headers, body: batch.slice(0, 100) });
    expect(full.status).toBe(200);
    expect(full.json()).toHaveLength(100);
  });

  it('counts notifications too, and takes its limit from maxBatchItems', async () => {
    const { port, headers } = await batchSession({ maxBatchItems: 3 });
    const res = await send(port, { headers, body: [initialized, initialized, initialized, initialized] });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ error: { data: { limit: 3, items: 4 } } });
  });

  it('answers a batch whose answers pass maxBatchResponseBytes with one 413 error instead', async () => {
    const { port, headers } = await batchSession({ maxBatchResponseBytes: 4000 });
    const text = 'x'.repeat(1500);
    const small = await send(port, { headers, body: [echo(2, text)] });
    expect(small.status).toBe(200);
    expect(small.json()).toMatchObject([{ id: 2, result: { structuredContent: { text } } }]);
    const big = await send(port, { headers, body: [echo(3, text), echo(4, text), echo(5, text)] });
    expect(big.status).toBe(413);
    expect(big.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          'Batch response too large: the answers exceed 4000 bytes (maxBatchResponseBytes); send fewer requests per batch',
        data: { limit: 4000, option: 'maxBatchResponseBytes' },
      },
    });
  });
});

describe('batch limits over stdio', () => {
  it('answers a batch of more than 100 messages with the same error line', async () => {
    child = new StdioChild();
    child.write(
      initialize(1, '2025-03-26'),
      initialized,
      Array.from({ length: 101 }, (_, i) => req(i + 10, 'ping')),
    );
    const refusal = await child.waitFor((m) => m.id === null);
    expect(refusal).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Batch too large: 101 messages, the limit is 100 (maxBatchItems)',
        data: { limit: 100, items: 101, option: 'maxBatchItems' },
      },
    });
    // Nothing of the batch ran: no ping was answered.
    child.end();
    await child.exited;
    expect(child.messages().filter((m) => typeof m.id === 'number' && m.id >= 10)).toEqual([]);
  });
});
