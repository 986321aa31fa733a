/**
 * The deprecated HTTP+SSE transport (`--transport sse`) on three `serve` replicas sharing a real
 * redis-server, as the CLI composes them: a client's stream stays on the replica its `GET /sse`
 * reached, and its POSTs may reach any replica. They are answered on the stream; another
 * principal's POST is refused as the holding replica refuses it; a session whose stream ended, or
 * whose replica stopped, is unknown everywhere; the sessions count in the quota the replicas share
 * with the 2025 sessions; and nothing real travels through Redis in clear.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { connectRedis } from '@cloudg/redis';
import { Client, SSEClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Replica, startReplica, stopReplicas } from './support/http-replica.js';
import { startRedis } from './support/redis-server.js';
import { roundRobin } from './support/round-robin.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
const PREFIX = 'legacy-sse-test:';
const POLICY = {
  extends: 'open',
  vault: { key: 'legacy-sse-replica-key-0123456789' },
  // A question asked on the stream, whose answer the client POSTs to whichever replica it reaches.
  confirm: [{ tools: ['unload_dataset'] }],
};
const ALICE = 'atok';
const BOB = 'btok';
/** A principal of its own for the quota test: the other tests' sessions do not count against it. */
const CAROL = 'ctok';

let redis: Awaited<ReturnType<typeof startRedis>>;
let outputDir: string;
const replicas: Replica[] = [];

beforeAll(async () => {
  redis = await startRedis();
  outputDir = await mkdtemp(join(tmpdir(), 'cloudg-legacy-sse-out-'));
  for (let i = 0; i < 3; i++)
    replicas.push(
      await startReplica(redis.url, {
        policy: POLICY,
        keyPrefix: PREFIX,
        outputDir,
        serve: { transport: 'sse', authTokens: [`${ALICE}::alice`, `${BOB}::bob`, `${CAROL}::carol`] },
      }),
    );
}, 60_000);
afterAll(async () => {
  await stopReplicas(replicas);
  await redis?.stop();
  await rm(outputDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Message = Record<string, unknown>;

/** A `GET /sse` answered without a stream: its status and JSON body. */
class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`no endpoint (status ${status})`);
  }
}

/** A client's `GET /sse` stream: the endpoint it names and the messages that follow. */
class LegacyStream {
  readonly messages: Message[] = [];
  endpoint = '';
  ended = false;
  private response: IncomingMessage | undefined;

  static open(port: number, token: string): Promise<LegacyStream> {
    const stream = new LegacyStream();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/sse',
          headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        },
        (res) => {
          stream.response = res;
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let end = buffer.indexOf('\n\n');
            while (end !== -1) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              end = buffer.indexOf('\n\n');
              const event = /^event: (.*)$/m.exec(frame)?.[1];
              const data = /^data: (.*)$/m.exec(frame)?.[1];
              if (data === undefined) continue;
              if (event === 'endpoint') {
                stream.endpoint = data;
                resolve(stream);
              } else stream.messages.push(JSON.parse(data) as Message);
            }
          });
          res.on('close', () => {
            stream.ended = true;
            if (stream.endpoint) return;
            let body: unknown;
            try {
              body = JSON.parse(buffer);
            } catch {
              body = buffer;
            }
            reject(new Refused(res.statusCode ?? 0, body));
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** The answer to request `id`, once the stream carries it. */
  async answer(id: number | string, timeoutMs = 15_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${id}: ${JSON.stringify(this.messages)}`);
      await sleep(20);
    }
  }

  close(): void {
    this.response?.destroy();
  }
}

/** POST a message to a replica; the status and the body's text. */
function post(
  port: number,
  path: string,
  token: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const rpc = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const INITIALIZE = rpc(1, 'initialize', {
  protocolVersion: '2024-11-05',
  capabilities: {},
  clientInfo: { name: 'legacy-test', version: '1' },
});

/** A 2025 `initialize` as `token`'s principal: the status, the session id and the JSON body. */
function initialize2025(
  port: number,
  token: string,
): Promise<{ status: number; session: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            session: String(res.headers['mcp-session-id']),
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify(
        rpc(1, 'initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'quota-test', version: '1' },
        }),
      ),
    );
  });
}

/** The 2025 session's GET stream, open until closed: its status once the headers arrive. */
function stream2025(
  port: number,
  token: string,
  session: string,
): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
      },
      (res) => resolve({ status: res.statusCode ?? 0, close: () => res.destroy() }),
    );
    req.on('error', reject);
    req.end();
  });
}

/** The sample estate's identifiers distinctive enough to look for: ARNs, account ids, names. */
function realValues(): string[] {
  const map = JSON.parse(readFileSync(MAP, 'utf8')) as {
    assets: { arn: string; name: string; account_id?: string }[];
  };
  const out = new Set<string>();
  for (const asset of map.assets) {
    out.add(asset.arn);
    if (asset.account_id) out.add(asset.account_id);
    if (asset.name.length >= 6 && /[-_/.]/.test(asset.name)) out.add(asset.name);
  }
  return [...out];
}

/** Every key of the prefix with its whole content, as text (the Redis tests' scan, over the CLI's keys). */
async function dump(client: Awaited<ReturnType<typeof connectRedis>>): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const key of await client.keys(`${PREFIX}*`)) {
    const type = await client.type(key);
    if (type === 'hash') out[key] = await client.hgetall(key);
    else if (type === 'stream') out[key] = await client.xrange(key, '-', '+');
    else if (type === 'zset') out[key] = await client.zrange(key, '0', '-1');
    else if (type === 'list') out[key] = await client.lrange(key, 0, -1);
    else if (type === 'set') out[key] = await client.smembers(key);
    else if (type === 'string') out[key] = await client.get(key);
  }
  return JSON.stringify(out);
}

describe('the deprecated HTTP+SSE transport on three replicas sharing Redis', { timeout: 60_000 }, () => {
  it('answers on the stream held by A the POSTs that reach B and C, and leaves nothing real in Redis', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const client = await connectRedis(redis.url);
    const listener = client.duplicate({ enableOfflineQueue: true });
    const heard: string[] = [];
    listener.on('pmessage', (_pattern: string, _channel: string, message: string) => heard.push(message));
    await listener.psubscribe(`${PREFIX}*`);
    const stream = await LegacyStream.open(a.port, ALICE);
    try {
      expect(stream.endpoint).toMatch(/^\/messages\/\?session_id=[0-9a-f]{32}$/);
      expect(await post(b.port, stream.endpoint, ALICE, INITIALIZE)).toEqual({ status: 202, text: '' });
      expect(await stream.answer(1)).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
      const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
      expect((await post(c.port, stream.endpoint, ALICE, initialized)).status).toBe(202);

      const load = rpc(2, 'tools/call', {
        name: 'load_dataset',
        arguments: { path: MAP, name: 'legacy-estate' },
      });
      expect((await post(b.port, stream.endpoint, ALICE, load)).status).toBe(202);
      expect(await stream.answer(2)).toMatchObject({ result: { isError: false } });
      const arn = 'arn:aws:rds:us-east-1:111111111111:db:orders-db';
      const get = rpc(3, 'tools/call', {
        name: 'get_asset',
        arguments: { ref: arn, dataset: 'legacy-estate' },
      });
      expect((await post(c.port, stream.endpoint, ALICE, get)).status).toBe(202);
      const asset = await stream.answer(3);
      expect(asset).toMatchObject({ result: { isError: false } });
      expect(JSON.stringify(asset)).toContain('orders-db');
      // A POST that reaches the holder itself is served as ever.
      expect((await post(a.port, stream.endpoint, ALICE, rpc(4, 'tools/list'))).status).toBe(202);
      expect(await stream.answer(4)).toMatchObject({ result: { tools: expect.any(Array) } });
      // Each answer once, in the order asked (the load's change notification has no id).
      expect(stream.messages.filter((m) => 'id' in m).map((m) => m.id)).toEqual([1, 2, 3, 4]);
      expect(stream.messages.filter((m) => !('id' in m)).map((m) => m.method)).toEqual([
        'notifications/resources/list_changed',
      ]);

      await sleep(100);
      const stored = await dump(client);
      const published = heard.join('\n');
      expect(stored).toContain('legacy-sse:');
      for (const secret of [...realValues(), 'alice', 'legacy-estate', 'inventory-map.json', 'legacy-test']) {
        expect(stored, secret).not.toContain(secret);
        expect(published, secret).not.toContain(secret);
      }
    } finally {
      stream.close();
      await listener.quit();
      await client.quit();
    }
  });

  it("refuses another principal's POST on every replica as the holder does, and runs none of it", async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const stream = await LegacyStream.open(a.port, ALICE);
    try {
      expect((await post(c.port, stream.endpoint, ALICE, INITIALIZE)).status).toBe(202);
      await stream.answer(1);
      const onHolder = await post(a.port, stream.endpoint, BOB, rpc(7, 'ping'));
      const elsewhere = await post(b.port, stream.endpoint, BOB, rpc(8, 'ping'));
      expect(onHolder.status).toBe(404);
      expect(JSON.parse(onHolder.text)).toMatchObject({ error: { message: 'Session not found' } });
      expect(elsewhere).toEqual(onHolder);
      expect((await post(b.port, stream.endpoint, ALICE, rpc(9, 'ping'))).status).toBe(202);
      await stream.answer(9);
      expect(stream.messages.map((m) => m.id)).toEqual([1, 9]);
      // A session id no replica holds.
      const unknown = await post(
        b.port,
        '/messages/?session_id=0123456789abcdef0123456789abcdef',
        ALICE,
        rpc(1, 'ping'),
      );
      expect(unknown).toEqual(onHolder);
    } finally {
      stream.close();
    }
  });

  it('knows a session no more once its stream has ended', async () => {
    const [a, b] = replicas as [Replica, Replica, Replica];
    const stream = await LegacyStream.open(b.port, ALICE);
    expect((await post(a.port, stream.endpoint, ALICE, INITIALIZE)).status).toBe(202);
    await stream.answer(1);
    stream.close();
    const deadline = Date.now() + 5000;
    let status = 0;
    // The holder notices the closed connection, then forgets the session for every replica.
    while (Date.now() < deadline) {
      status = (await post(a.port, stream.endpoint, ALICE, rpc(2, 'ping'))).status;
      if (status === 404) break;
      await sleep(20);
    }
    expect(status).toBe(404);
  });

  it('keeps the official SSE client working behind a round-robin balancer: calls, a question and its answer', async () => {
    const balancer = await roundRobin(replicas.map((r) => r.port));
    const client = new Client(
      { name: 'balanced-legacy', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      await client.connect(
        new SSEClientTransport(new URL(balancer.url.replace(/\/mcp$/, '/sse')), {
          authProvider: { token: async () => ALICE },
        }),
      );
      for (let i = 0; i < 4; i++) {
        const listed = await client.callTool({ name: 'list_datasets', arguments: {} });
        expect(listed.isError).toBeFalsy();
        expect(JSON.stringify(listed.structuredContent)).toContain('legacy-estate');
      }
      for (const name of ['asked-1', 'asked-2']) {
        const loaded = await client.callTool({ name: 'load_dataset', arguments: { path: MAP, name } });
        expect(loaded.isError).toBeFalsy();
      }
      // Each question goes out on the stream and its answer is POSTed. The two answers are two
      // POSTs apart, so the balancer sends them to two replicas: at least one is not the holder.
      for (const name of ['asked-1', 'asked-2']) {
        const unloaded = await client.callTool({ name: 'unload_dataset', arguments: { name } });
        expect(unloaded.isError).toBeFalsy();
      }
      expect(asked).toEqual([
        'Run unload_dataset? The policy asks you to confirm this call.',
        'Run unload_dataset? The policy asks you to confirm this call.',
      ]);
      // The stream on one replica, the POSTs spread over all three.
      expect(balancer.served.every((n) => n >= 2)).toBe(true);
    } finally {
      await client.close();
      balancer.server.closeAllConnections();
      balancer.server.close();
    }
  });

  it("counts a principal's sessions of both transports on every replica in one quota: the 101st is refused anywhere, and one closed frees a place", async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    // `serve` keeps the default quota: a tenth of the 1000 sessions, 100 per principal.
    const held: LegacyStream[] = [];
    const modern = await initialize2025(c.port, CAROL);
    expect(modern.status).toBe(200);
    // Its GET stream open, the 2025 session is busy: it is not ended to make room.
    const modernStream = await stream2025(c.port, CAROL, modern.session);
    try {
      expect(modernStream.status).toBe(200);
      for (let i = 0; i < 99; i++) held.push(await LegacyStream.open(a.port, CAROL));
      const refused = await LegacyStream.open(b.port, CAROL).then(
        () => undefined,
        (error: unknown) => error,
      );
      const quota = {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -31029,
          message:
            'Too many sessions for this principal: the limit is 100 (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE',
          data: { limit: 100, option: 'maxSessionsPerPrincipal' },
        },
      };
      expect(refused).toBeInstanceOf(Refused);
      expect([(refused as Refused).status, (refused as Refused).body]).toEqual([429, quota]);
      const another = await initialize2025(b.port, CAROL);
      expect([another.status, another.body]).toEqual([429, quota]);
      // Others are not held back by carol's sessions.
      const bobs = await LegacyStream.open(b.port, BOB);
      bobs.close();

      held.shift()?.close();
      let admitted: LegacyStream | undefined;
      const deadline = Date.now() + 5000;
      while (!admitted && Date.now() < deadline) {
        admitted = await LegacyStream.open(b.port, CAROL).catch(() => undefined);
        if (!admitted) await sleep(20);
      }
      expect(admitted?.endpoint).toMatch(/^\/messages\/\?session_id=[0-9a-f]{32}$/);
      if (admitted) held.push(admitted);
      // The place freed on A was taken on B: the count is full again everywhere.
      await expect(LegacyStream.open(c.port, CAROL)).rejects.toBeInstanceOf(Refused);
    } finally {
      for (const stream of held) stream.close();
      modernStream.close();
    }
  });

  it('ends the session when its replica stops: a POST elsewhere gets 404', async () => {
    const [a, , c] = replicas as [Replica, Replica, Replica];
    const stream = await LegacyStream.open(c.port, ALICE);
    expect((await post(a.port, stream.endpoint, ALICE, INITIALIZE)).status).toBe(202);
    await stream.answer(1);
    c.stop.abort();
    await c.done;
    // The replica ended the stream on its way out (the client hears of it a moment later).
    for (let i = 0; i < 100 && !stream.ended; i++) await sleep(20);
    expect(stream.ended).toBe(true);
    const after = await post(a.port, stream.endpoint, ALICE, rpc(2, 'ping'));
    expect(after.status).toBe(404);
    expect(JSON.parse(after.text)).toMatchObject({ error: { message: 'Session not found' } });
  });
});
