/**
 * The deprecated HTTP+SSE transport on replicas sharing one real redis-server (RedisLegacySseRelay):
 * a session lives on the replica holding its stream and takes POSTs through any other. What a
 * user relies on: a replica that dies abruptly takes its sessions with it (a POST elsewhere gets
 * 404 at once, and the record expires with its heartbeat); a Redis that lost its data gets the
 * open sessions back at the next beat; and someone who can write to Redis but lacks the vault key
 * cannot plant a message, replay a captured one, or borrow another session's record.
 */

import { type IncomingMessage, request } from 'node:http';
import { createVaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS, type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let attacker: Redis | undefined;
let prefixes = 0;

// Registered after sharedRedis's hooks, so it runs before the replicas close (as before).
afterEach(async () => {
  await attacker?.quit();
  attacker = undefined;
});

async function start(heartbeatMs: number, names = ['A', 'B']) {
  prefixes += 1;
  const prefix = `legacy${prefixes}:`;
  env.replicas = await startReplicas(env.redis.url, names, prefix, {
    transport: 'sse',
    heartbeats: Object.fromEntries(names.map((name) => [name, heartbeatMs])),
  });
  const [a, b, c] = env.replicas as [HttpReplica, HttpReplica, HttpReplica | undefined];
  attacker = a.state.client.duplicate({ enableOfflineQueue: true });
  return { a, b, c, prefix, r: attacker };
}

type Message = Record<string, unknown>;

/** `GET /sse` on a replica: the endpoint it names, then the messages. */
async function openStream(port: number, token = 'atok') {
  const messages: Message[] = [];
  let response: IncomingMessage | undefined;
  const endpoint = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/sse',
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
      },
      (res) => {
        response = res;
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (data === undefined) continue;
            if (/^event: endpoint$/m.test(frame)) resolve(data);
            else messages.push(JSON.parse(data) as Message);
          }
        });
        res.on('close', () => reject(new Error(`stream closed (${res.statusCode})`)));
      },
    );
    req.on('error', reject);
    req.end();
  });
  return {
    endpoint,
    session: new URL(endpoint, 'http://x').searchParams.get('session_id') as string,
    messages,
    async answer(id: number): Promise<Message | undefined> {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const found = messages.find((m) => m.id === id);
        if (found) return found;
        await sleep(20);
      }
      return undefined;
    },
    close: () => response?.destroy(),
  };
}

function post(port: number, path: string, body: unknown, token = 'atok'): Promise<number> {
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
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** `GET /sse` answered at once (refused): status, headers and the JSON body. */
function refusedStream(port: number): Promise<{ status: number; retryAfter: unknown; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/sse',
        headers: { accept: 'text/event-stream', authorization: 'Bearer atok' },
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
            retryAfter: res.headers['retry-after'],
            body: JSON.parse(text),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const work = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'work', arguments: {} },
});

describe('the deprecated HTTP+SSE transport across replicas', { timeout: 60_000 }, () => {
  it('ends the sessions of a replica that dies: a POST elsewhere gets 404, the record lapses', async () => {
    const { a, b, prefix, r } = await start(HEARTBEAT_MS);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    expect(await stream.answer(1)).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
    expect(await r.exists(`${prefix}legacy-sse:${stream.session}`)).toBe(1);
    await a.kill();
    // No one hears the forwarded message: unknown at once, before the heartbeat lapses.
    expect(await post(b.port, stream.endpoint, work(2))).toBe(404);
    await sleep(HEARTBEAT_MS * 4);
    expect(await r.exists(`${prefix}legacy-sse:${stream.session}`)).toBe(0);
    expect(await post(b.port, stream.endpoint, work(3))).toBe(404);
  });

  it('brings the open sessions back once a Redis that lost its data sees the next beat', async () => {
    const { a, b, r } = await start(HEARTBEAT_MS);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    await stream.answer(1);
    await r.flushall();
    expect(await post(b.port, stream.endpoint, work(2))).toBe(404);
    await sleep(HEARTBEAT_MS * 3);
    expect(await post(b.port, stream.endpoint, work(3))).toBe(202);
    expect(await stream.answer(3)).toMatchObject({ result: { isError: false } });
    stream.close();
  });

  it('answers 503 with Retry-After while Redis is away, and the holder still takes its own POSTs', async () => {
    const { a, b } = await start(LIVE_HEARTBEAT_MS);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    await stream.answer(1);
    await env.redis.pause();
    try {
      // No session is opened that the other replicas could not find.
      const refused = await refusedStream(b.port);
      expect(refused).toMatchObject({
        status: 503,
        retryAfter: '1',
        body: { error: { data: { error_code: 'shared_state_unavailable' } } },
      });
      expect(await post(b.port, stream.endpoint, { jsonrpc: '2.0', id: 2, method: 'ping' })).toBe(503);
      expect(await post(a.port, stream.endpoint, { jsonrpc: '2.0', id: 3, method: 'ping' })).toBe(202);
      expect(await stream.answer(3)).toMatchObject({ result: {} });
    } finally {
      await env.redis.resume();
    }
    stream.close();
  });

  it('takes no forged or replayed post, and no record copied from another session', async () => {
    const { a, b, prefix, r } = await start(LIVE_HEARTBEAT_MS);
    const heard: string[] = [];
    const listener = r.duplicate();
    listener.on('pmessage', (_p: string, _c: string, message: string) => heard.push(message));
    await listener.psubscribe(`${prefix}replica:*`);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    await stream.answer(1);
    expect(await post(b.port, stream.endpoint, work(2))).toBe(202);
    expect(await stream.answer(2)).toMatchObject({ result: { isError: false } });
    expect(a.calls).toBe(1);
    const captured = heard.filter((m) => m.startsWith('{"l":'));
    expect(captured).toHaveLength(2);

    const channel = `${prefix}replica:${a.state.sessions.replica}`;
    const plain = { session: stream.session, principal: { id: 'alice', roles: ['default'], attributes: {} } };
    const other = createVaultSealer({ key: 'not-the-replicas-key' });
    const planted = [
      JSON.stringify({ l: JSON.stringify({ ...plain, message: work(3), n: 'n1', t: Date.now() }) }),
      JSON.stringify({
        l: other.seal(
          JSON.stringify({ ...plain, message: work(4), n: 'n2', t: Date.now() }),
          'legacy-sse-post',
        ),
      }),
      // The tools/call B forwarded, published again as it was.
      ...captured.slice(1),
    ];
    for (const message of planted) await r.publish(channel, message);
    await sleep(300);
    expect(a.calls).toBe(1);
    expect(stream.messages.map((m) => m.id)).toEqual([1, 2]);

    // Alice's record copied under another session id: no one's session.
    const copied = '0123456789abcdef0123456789abcdef';
    const record = await r.hgetall(`${prefix}legacy-sse:${stream.session}`);
    await r.hset(`${prefix}legacy-sse:${copied}`, record);
    expect(await post(b.port, `/messages/?session_id=${copied}`, work(5))).toBe(404);
    // Bob's token on Alice's session, through either replica.
    expect(await post(b.port, stream.endpoint, work(6), 'btok')).toBe(404);
    expect(await post(a.port, stream.endpoint, work(7), 'btok')).toBe(404);
    expect(a.calls).toBe(1);
    await listener.quit();
    stream.close();
  });

  it('drops a stale record once a POST reaches the holder for a session gone: the next POST gets 404', async () => {
    const { a, b, prefix, r } = await start(LIVE_HEARTBEAT_MS);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    await stream.answer(1);
    const key = `${prefix}legacy-sse:${stream.session}`;
    const record = await r.hgetall(key);
    stream.close();
    const gone = async () => {
      const deadline = Date.now() + 5000;
      while ((await r.exists(key)) === 1 && Date.now() < deadline) await sleep(20);
      return r.exists(key);
    };
    expect(await gone()).toBe(0);
    // The record back, as a release that failed would leave it.
    await r.hset(key, record);
    await r.pexpire(key, 60_000);
    expect(await post(b.port, stream.endpoint, work(2))).toBe(202);
    expect(await gone()).toBe(0);
    expect(await post(b.port, stream.endpoint, work(3))).toBe(404);
    expect(a.calls).toBe(0);
  });

  it('refuses POSTs for a record whose holder was changed, rather than sending them where they are dropped', async () => {
    const { a, b, c, prefix, r } = await start(LIVE_HEARTBEAT_MS, ['A', 'B', 'C']);
    const stream = await openStream(a.port);
    expect(await post(b.port, stream.endpoint, INITIALIZE)).toBe(202);
    await stream.answer(1);
    // C lives, but holds nothing: what B sent there would be lost, the client told 202.
    await r.hset(`${prefix}legacy-sse:${stream.session}`, 'h', (c as HttpReplica).state.sessions.replica);
    expect(await post(b.port, stream.endpoint, work(2))).toBe(404);
    // The holder still takes its own, and its next renewal writes the record right again.
    expect(await post(a.port, stream.endpoint, work(3))).toBe(202);
    expect(await stream.answer(3)).toMatchObject({ result: { isError: false } });
    await sleep(LIVE_HEARTBEAT_MS + 300);
    expect(await post(b.port, stream.endpoint, work(4))).toBe(202);
    expect(await stream.answer(4)).toMatchObject({ result: { isError: false } });
    stream.close();
  });
});
