/**
 * Three `serve` replicas with --redis-url against a real redis-server, as the CLI composes them:
 * a dataset loaded through a 2025-era session on A is listed through the same session on B, and
 * the change is told once to a 2026 listener on B and once to the session's stream held by C
 * (the replica that made the change announces it; the others replay it silently); and the
 * official client behind a round-robin balancer keeps one session across all three.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Replica, startReplica, stopReplicas } from './support/http-replica.js';
import { startRedis } from './support/redis-server.js';
import { roundRobin } from './support/round-robin.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
const POLICY = {
  extends: 'open',
  vault: { key: 'replica-test-key-0123456789' },
  // A question the client answers with a POST that the balancer may send to any replica.
  confirm: [{ tools: ['unload_dataset'] }],
};

let redis: Awaited<ReturnType<typeof startRedis>>;
let outputDir: string;
const replicas: Replica[] = [];

beforeAll(async () => {
  redis = await startRedis();
  outputDir = await mkdtemp(join(tmpdir(), 'cloudg-replicas-out-'));
  for (let i = 0; i < 3; i++)
    replicas.push(await startReplica(redis.url, { policy: POLICY, keyPrefix: 'server-test:', outputDir }));
});
afterAll(async () => {
  await stopReplicas(replicas);
  await redis?.stop();
  await rm(outputDir, { recursive: true, force: true });
});

/** A POST or a stream: the parsed JSON, or the SSE messages received until `until` holds. */
function send(
  port: number,
  headers: Record<string, string>,
  body: unknown,
  stream?: { until: (messages: Record<string, unknown>[]) => boolean; get?: boolean },
): Promise<{
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  messages: Record<string, unknown>[];
}> {
  return new Promise((resolve, reject) => {
    const messages: Record<string, unknown>[] = [];
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: stream?.get ? 'GET' : 'POST',
        path: '/mcp',
        headers: {
          accept: stream ? 'text/event-stream' : 'application/json',
          ...(stream?.get ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: stream || !text ? undefined : JSON.parse(text),
            messages,
          });
        res.on('data', (chunk: string) => {
          text += chunk;
          if (!stream) return;
          for (const line of chunk.split('\n'))
            if (line.startsWith('data: ')) messages.push(JSON.parse(line.slice(6)));
          if (stream.until(messages)) {
            res.destroy();
            finish();
          }
        });
        res.on('end', finish);
        res.on('close', finish);
      },
    );
    req.on('error', reject);
    if (!stream?.get) req.write(JSON.stringify(body));
    req.end();
  });
}

const methods = (messages: Record<string, unknown>[]) => messages.map((m) => m.method);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('three replicas sharing Redis', () => {
  it('a dataset loaded on A is listed on B and told once to a listener on B and to the session stream on C', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const init = await send(
      a.port,
      {},
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      },
    );
    const session = String(init.headers['mcp-session-id']);
    const on = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await send(b.port, on, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(
      202,
    );

    const seen: Record<string, unknown>[][] = [];
    const stream = send(c.port, on, undefined, {
      get: true,
      until: (m) => {
        seen[0] = m;
        return false;
      },
    });
    const listen = send(
      b.port,
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      {
        jsonrpc: '2.0',
        id: 'l-1',
        method: 'subscriptions/listen',
        params: {
          notifications: { resourcesListChanged: true },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
          },
        },
      },
      {
        until: (m) => {
          seen[1] = m;
          return false;
        },
      },
    );
    await sleep(200);

    const loaded = await send(a.port, on, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'load_dataset', arguments: { path: MAP, name: 'extra' } },
    });
    expect((loaded.body as { result: { isError: boolean } }).result.isError).toBe(false);
    const listed = await send(b.port, on, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'list_datasets', arguments: {} },
    });
    expect(JSON.stringify((listed.body as { result: unknown }).result)).toContain('extra');

    // Long enough for the other replicas to have replayed the load (they poll at least every second).
    await sleep(1500);
    expect(methods(seen[0] ?? []).filter((m) => m === 'notifications/resources/list_changed')).toHaveLength(
      1,
    );
    expect(methods(seen[1] ?? [])).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/list_changed',
    ]);
    void stream;
    void listen;
  });
});

describe('the official client behind a round-robin balancer', () => {
  it('keeps one 2025 session over three replicas: calls, a question and its answer, notifications', async () => {
    const balancer = await roundRobin(replicas.map((r) => r.port));
    const asked: string[] = [];
    const told: string[] = [];
    const client = new Client(
      { name: 'balanced', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { confirm: true } };
    });
    client.setNotificationHandler('notifications/resources/list_changed', async () => {
      told.push('resources/list_changed');
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
      const loaded = await client.callTool({
        name: 'load_dataset',
        arguments: { path: MAP, name: 'balanced' },
      });
      expect(loaded.isError).toBeFalsy();
      for (let i = 0; i < 3; i++) {
        const listed = await client.callTool({ name: 'list_datasets', arguments: {} });
        expect(JSON.stringify(listed.structuredContent)).toContain('balanced');
      }
      const unloaded = await client.callTool({ name: 'unload_dataset', arguments: { name: 'balanced' } });
      expect(unloaded.isError).toBeFalsy();
      expect(asked).toEqual(['Run unload_dataset? The policy asks you to confirm this call.']);
      const deadline = Date.now() + 3000;
      while (told.length < 2 && Date.now() < deadline) await sleep(20);
      // One per change (the load, the unload), from whichever replica holds the stream.
      expect(told).toEqual(['resources/list_changed', 'resources/list_changed']);
      expect(balancer.served.every((n) => n > 0)).toBe(true);
    } finally {
      await client.close();
      balancer.server.closeAllConnections();
      balancer.server.close();
    }
  });
});
