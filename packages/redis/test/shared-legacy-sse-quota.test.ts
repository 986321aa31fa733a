/**
 * Sessions of the deprecated HTTP+SSE transport in the session cap and quota the replicas share
 * (one real redis-server): counted with the 2025 sessions across every replica, as one replica
 * counts both, refused with the same 429 and 503; never the idle session ended to make room;
 * gone from the count at once when their stream closes, and within three heartbeats of a
 * replica that died.
 */

import { type IncomingMessage, request } from 'node:http';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { Stream } from './support/http-client.js';
import { type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { initialize, on, rpc, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let reader: Redis | undefined;
const open: { close(): void }[] = [];
let prefixes = 0;

// Registered after sharedRedis's hooks, so it runs before the replicas close (as before).
afterEach(async () => {
  for (const stream of open.splice(0)) stream.close();
  await reader?.quit();
  reader = undefined;
});

async function three(options: Parameters<typeof startReplicas>[3]) {
  prefixes += 1;
  const prefix = `ssequota${prefixes}:`;
  env.replicas = await startReplicas(env.redis.url, ['A', 'B', 'C'], prefix, {
    transport: 'sse',
    ...options,
  });
  reader = (env.replicas[0] as HttpReplica).state.client.duplicate({ enableOfflineQueue: true });
  return { replicas: env.replicas as [HttpReplica, HttpReplica, HttpReplica], prefix, r: reader };
}

interface SseSession {
  status: number;
  /** The session id the endpoint names, once admitted. */
  session: string;
  /** The refusal's JSON body. */
  body: unknown;
  close(): void;
}

/** `GET /sse` as `token`'s principal: admitted once the endpoint is named, or refused. */
function openSse(replica: HttpReplica, token = 'atok'): Promise<SseSession> {
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const close = () => response?.destroy();
    const req = request(
      {
        host: '127.0.0.1',
        port: replica.port,
        path: '/sse',
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
      },
      (res) => {
        response = res;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (res.statusCode !== 200) return;
          const endpoint = /event: endpoint\ndata: (.*)\n/.exec(text)?.[1];
          if (endpoint === undefined) return;
          const session = new URL(endpoint, 'http://x').searchParams.get('session_id') as string;
          const admitted = { status: 200, session, body: undefined, close };
          open.push(admitted);
          resolve(admitted);
        });
        res.on('end', () => {
          if (res.statusCode !== 200)
            resolve({ status: res.statusCode ?? 0, session: '', body: JSON.parse(text), close });
        });
        res.on('close', () => reject(new Error(`stream closed (${res.statusCode})`)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A 2025 session with its GET stream open: never idle, so never ended to make room. */
async function streamed(replica: HttpReplica, token = 'atok'): Promise<{ session: string; stream: Stream }> {
  const { status, session } = await initialize(replica, token);
  expect(status).toBe(200);
  const stream = await Stream.open(replica.port, on(session, token));
  expect(stream.status).toBe(200);
  open.push(stream);
  return { session, stream };
}

/** Ask until admitted (a release or an expiry is on its way); the status and how long it took. */
async function admittedWithin(ms: number, attempt: () => Promise<SseSession>) {
  const start = Date.now();
  let last: SseSession | undefined;
  while (Date.now() - start < ms) {
    last = await attempt();
    if (last.status === 200) break;
    await sleep(25);
  }
  return { status: last?.status, session: last?.session, ms: Date.now() - start };
}

const QUOTA = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -31029,
    message:
      'Too many sessions for this principal: the limit is 2 (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE',
    data: { limit: 2, option: 'maxSessionsPerPrincipal' },
  },
};

describe('legacy HTTP+SSE sessions in the shared session quota and cap', { timeout: 60_000 }, () => {
  it('counts them across replicas: two on A, the third refused on B and a 2025 one on C; one closed frees a place elsewhere', async () => {
    // The production heartbeat: an entry left to expire would count for six seconds.
    const {
      replicas: [a, b, c],
      prefix,
      r,
    } = await three({
      maxSessionsPerPrincipal: 2,
      heartbeats: { A: LIVE_HEARTBEAT_MS, B: LIVE_HEARTBEAT_MS, C: LIVE_HEARTBEAT_MS },
    });
    const first = await openSse(a);
    const second = await openSse(a);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await openSse(b);
    expect([third.status, third.body]).toEqual([429, QUOTA]);
    // The 2025 transport counts them too, and neither SSE session is ended to make room.
    const modern = await initialize(c);
    expect([modern.status, modern.body]).toEqual([429, QUOTA]);
    // Another principal is not held back by alice's sessions.
    expect((await openSse(b, 'btok')).status).toBe(200);
    expect(await r.zscore(`${prefix}sessions`, `sse:${first.session}`)).not.toBeNull();

    first.close();
    // Released with the stream, not left to expire: admitted well within the entry's six seconds.
    const again = await admittedWithin(3000, () => openSse(b));
    expect(again.status).toBe(200);
    expect(await r.zscore(`${prefix}sessions`, `sse:${first.session}`)).toBeNull();
    expect((await openSse(c)).status).toBe(429);
  });

  it('counts a 2025 session with them, and ends it to make room once it is idle, as one replica does', async () => {
    const {
      replicas: [a, b, c],
    } = await three({ maxSessionsPerPrincipal: 2 });
    expect((await openSse(a)).status).toBe(200);
    const modern = await streamed(b);
    // Alice's 2025 session streams: it is busy, so the SSE session on C is refused.
    const refused = await openSse(c);
    expect([refused.status, refused.body]).toEqual([429, QUOTA]);
    modern.stream.close();
    const admitted = await admittedWithin(5000, () => openSse(c));
    expect(admitted.status).toBe(200);
    // The idle 2025 session was ended for it, on every replica.
    expect((await rpc(a, modern.session, { id: 2, method: 'ping' })).status).toBe(404);
    expect((await rpc(b, modern.session, { id: 3, method: 'ping' })).status).toBe(404);
  });

  it('answers 503 at the cap, whoever holds the sessions and on whichever transport', async () => {
    const {
      replicas: [a, b, c],
    } = await three({ maxSessions: 2, maxSessionsPerPrincipal: 2 });
    expect((await openSse(a)).status).toBe(200);
    await streamed(b, 'btok');
    const full = await openSse(c);
    expect([full.status, full.body]).toEqual([
      503,
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Service Unavailable: too many sessions' },
      },
    ]);
    expect((await initialize(c, 'btok')).status).toBe(503);
  });

  it('counts the open sessions again once a Redis that lost its data sees the next beat', async () => {
    const {
      replicas: [a, b],
      r,
    } = await three({ maxSessionsPerPrincipal: 2 });
    expect((await openSse(a)).status).toBe(200);
    expect((await openSse(a)).status).toBe(200);
    await r.flushall();
    // Renewed at A's next beat (150 ms here): the quota holds again, though no GET was made.
    await sleep(450);
    const refused = await openSse(b);
    expect([refused.status, refused.body]).toEqual([429, QUOTA]);
  });

  it("stops counting a killed replica's sessions within three heartbeats", async () => {
    const {
      replicas: [a, b],
      prefix,
      r,
    } = await three({ maxSessionsPerPrincipal: 2 });
    const held = [await openSse(a), await openSse(a)];
    // Renewed by A's heartbeat (150 ms here) well past their first expiry.
    await sleep(700);
    expect((await openSse(b)).status).toBe(429);
    await a.kill();
    const admitted = await admittedWithin(5000, () => openSse(b));
    expect(admitted.status).toBe(200);
    // Three beats (450 ms) for the entries to lapse, and the time to ask again.
    expect(admitted.ms).toBeLessThan(2000);
    for (const session of held)
      expect(await r.zscore(`${prefix}sessions`, `sse:${session.session}`)).toBeNull();
  });
});
