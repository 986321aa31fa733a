/**
 * A replica killed mid-run (sockets cut, Redis connection dropped, no goodbye): the requests a
 * client spreads over three replicas all succeed when the client retries the failed ones on
 * another replica, the session goes on there, and its stream resumes on a survivor once the
 * dead replica's claim lapses.
 */
import { describe, expect, it } from 'vitest';
import { call, Stream } from './support/http-client.js';
import { type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { on, openSession, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();

describe('a replica killed mid-run', () => {
  it('loses no request the client retries on another, and the session and its stream go on', async () => {
    // A, which dies, beats every 500 ms so its claim lapses within 1.5 s of its death, and still
    // survives a loaded machine's stalls before it (150 ms beats lapsed a live A under load 30);
    // the survivors keep production beats.
    env.replicas = await startReplicas(env.redis.url, ['A', 'B', 'C'], 'failover:', {
      heartbeats: { A: 500, B: LIVE_HEARTBEAT_MS, C: LIVE_HEARTBEAT_MS },
    });
    const [a, b, c] = env.replicas as [HttpReplica, HttpReplica, HttpReplica];
    const session = await openSession(a);
    const stream = await Stream.open(a.port, on(session));
    c.layer.notifyChange('tools');
    await stream.until((f) => f.length >= 1);

    const total = 24;
    const results: unknown[] = [];
    let next = 0;
    let retried = 0;
    let killed: Promise<void> | undefined;
    // One call: sent to the replica its number picks, and on a failed connection to the next one.
    const run = async (n: number) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const replica = env.replicas[(n + attempt) % env.replicas.length] as HttpReplica;
        try {
          const answer = await call(replica.port, {
            headers: on(session),
            body: {
              jsonrpc: '2.0',
              id: n,
              method: 'tools/call',
              params: { name: 'work', arguments: { ms: 30 } },
            },
          });
          return (answer.body as { result: { structuredContent: unknown } }).result.structuredContent;
        } catch {
          retried += 1;
        }
      }
      throw new Error(`call ${n} failed on every replica`);
    };
    const worker = async () => {
      while (next < total) {
        const n = next++;
        if (n === 7) killed = a.kill();
        results.push(await run(n));
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    await killed;
    expect(results).toHaveLength(total);
    expect(results.every((r) => JSON.stringify(r) === '{"done":true}')).toBe(true);
    expect(retried).toBeGreaterThan(0);
    expect(b.calls + c.calls).toBeGreaterThanOrEqual(total - a.calls);

    // The stream A held broke with A (waited for, not assumed after a fixed time); it resumes on
    // B once A's claim lapses (three heartbeats), tried until a generous deadline.
    await stream.until(() => false, 15_000);
    expect(stream.ended).toBe(true);
    const last = stream.frames.at(-1)?.id as string;
    let resumed: Stream | undefined;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const attempt = await Stream.open(b.port, { ...on(session), 'last-event-id': last });
      if (attempt.status === 200) {
        resumed = attempt;
        break;
      }
      expect(attempt.status).toBe(409);
      await sleep(50);
    }
    expect(resumed?.status).toBe(200);
    c.layer.notifyChange('prompts');
    await resumed?.until((f) => f.length >= 1);
    expect(resumed?.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }]);
    resumed?.close();
  }, 60_000);
});
