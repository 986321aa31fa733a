/**
 * The per-principal session quota (`maxSessionsPerPrincipal`) and the session cap
 * (`maxSessions`) counted across three replicas in one real redis-server, and sessions of a
 * replica that died expiring instead of counting forever.
 */
import { describe, expect, it } from 'vitest';
import { Stream } from './support/http-client.js';
import { type HttpReplica, startReplicas } from './support/http-replicas.js';
import { initialize, on, rpc, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let prefixes = 0;

async function three(options: Parameters<typeof startReplicas>[3]) {
  prefixes += 1;
  env.replicas = await startReplicas(env.redis.url, ['A', 'B', 'C'], `quota${prefixes}:`, options);
  return env.replicas as [HttpReplica, HttpReplica, HttpReplica];
}

describe('the session quota across replicas', () => {
  it('counts a principal’s sessions on every replica: the third gets 429 while the two stream; then the idle one gives way', async () => {
    const [a, b, c] = await three({ maxSessionsPerPrincipal: 2 });
    const first = await initialize(a);
    const second = await initialize(b);
    const streams = [
      await Stream.open(a.port, on(first.session)),
      await Stream.open(b.port, on(second.session)),
    ];
    const third = await initialize(c);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -31029,
        message:
          'Too many sessions for this principal: the limit is 2 (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE',
        data: { limit: 2, option: 'maxSessionsPerPrincipal' },
      },
    });
    // Another principal is not held back by alice's sessions.
    expect((await initialize(c, 'btok')).status).toBe(200);
    // Alice's first session loses its stream: it is idle, and the next session ends it.
    streams[0]?.close();
    await sleep(100);
    expect((await initialize(c)).status).toBe(200);
    expect((await rpc(b, first.session, { id: 5, method: 'ping' })).status).toBe(404);
    expect((await rpc(a, second.session, { id: 6, method: 'ping' })).status).toBe(200);
    streams[1]?.close();
  });

  it('sessions of a replica that died stop counting once they expire: 503 at the cap, then admitted', async () => {
    const [a, b] = await three({ maxSessions: 2, maxSessionsPerPrincipal: 2, sessionIdleTimeoutMs: 400 });
    const held = [(await initialize(a)).session, (await initialize(a, 'btok')).session];
    const streams = [
      await Stream.open(a.port, on(held[0] as string)),
      await Stream.open(a.port, on(held[1] as string, 'btok')),
    ];
    // Kept alive by A's heartbeat while A streams them, well past the idle timeout.
    await sleep(700);
    expect((await initialize(b)).status).toBe(503);
    await a.kill();
    const start = Date.now();
    let status = 0;
    while (Date.now() - start < 5000) {
      status = (await initialize(b)).status;
      if (status === 200) break;
      await sleep(50);
    }
    expect(status).toBe(200);
    // Three heartbeats for the claim, then the idle timeout: well under two seconds.
    expect(Date.now() - start).toBeLessThan(2000);
    expect((await rpc(b, held[0] as string, { id: 2, method: 'ping' })).status).toBe(404);
    for (const s of streams) s.close();
  });
});
