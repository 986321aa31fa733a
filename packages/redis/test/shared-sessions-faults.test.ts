/**
 * Shared sessions when Redis is slow or restarts: a request of a session fails within the
 * command timeout with 503 and a retryable error naming the cause, never stalls, and the session
 * goes on once Redis answers; a Redis restarted without its data has forgotten the sessions,
 * which clients are told with 404, as the protocol asks, and start again; pub/sub resumes, and
 * the streams held catch up from their log with what was published while it was cut.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stream } from './support/http-client.js';
import { type HttpReplica, startReplicas } from './support/http-replicas.js';
import { on, openSession, rpc, sleep } from './support/mcp.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
let replicas: HttpReplica[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
  replicas = await startReplicas(redis.url, ['A', 'B'], 'faults:');
});
afterAll(async () => {
  for (const r of replicas) await r.close();
  await redis?.stop();
});

describe('shared sessions when Redis falters', () => {
  it('Redis slow: 503 within the command timeout, naming the cause; then the session goes on', async () => {
    const [a, b] = replicas as [HttpReplica, HttpReplica];
    const session = await openSession(a);
    const blocker = new Redis(redis.url);
    const sleeping = blocker.call('DEBUG', 'SLEEP', '1.5');
    await sleep(50);
    const start = Date.now();
    const refused = await rpc(b, session, { id: 2, method: 'ping' });
    expect(Date.now() - start).toBeLessThan(1400);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32603,
        message:
          'Shared state unavailable: Redis (sessions) did not answer in time; the request was not carried out, retry shortly',
        data: {
          error_code: 'shared_state_unavailable',
          retryable: true,
          state: 'sessions',
          cause: 'did not answer in time',
        },
      },
    });
    await sleeping;
    blocker.disconnect();
    expect((await rpc(b, session, { id: 3, method: 'ping' })).status).toBe(200);
  });

  it('Redis restarted without its data: 503 while it is down, then 404 for the forgotten session, and a new one works', async () => {
    const [a, b] = replicas as [HttpReplica, HttpReplica];
    const session = await openSession(a);
    await redis.pause();
    const down = await rpc(b, session, { id: 2, method: 'ping' });
    expect(down.status).toBe(503);
    expect((down.body as { error: { data: { cause: string } } }).error.data.cause).toMatch(
      /is not connected|refused the connection/,
    );
    await redis.resume();
    let status = 0;
    for (let i = 0; i < 60 && status !== 404; i++) {
      status = (await rpc(b, session, { id: 3, method: 'ping' })).status;
      if (status !== 404) await sleep(50);
    }
    expect(status).toBe(404);
    const again = await openSession(b);
    expect((await rpc(a, again, { id: 4, method: 'ping' })).status).toBe(200);
    // Pub/sub is back too: each replica subscribed again by itself (A's connections come back on
    // their own schedule: its first GET may still be refused with 503).
    let stream = await Stream.open(a.port, on(again));
    for (let i = 0; i < 60 && stream.status === 503; i++) {
      await sleep(50);
      stream = await Stream.open(a.port, on(again));
    }
    expect(stream.status).toBe(200);
    b.layer.notifyChange('tools');
    await stream.until((f) => f.length >= 1);
    expect(stream.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    stream.close();
  });

  it('pub/sub connections cut: what was published meanwhile reaches the stream once they are back', async () => {
    const [a, b] = replicas as [HttpReplica, HttpReplica];
    const session = await openSession(a);
    const stream = await Stream.open(a.port, on(session));
    expect(stream.status).toBe(200);
    const admin = new Redis(redis.url);
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // Published to A's channel while A is not subscribed: lost to pub/sub, kept in the log.
    b.layer.notifyChange('tools');
    await stream.until((f) => f.length >= 1);
    expect(stream.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    admin.disconnect();
    stream.close();
  });
});
