/**
 * What sharing 2025-era sessions through Redis adds to each request of a session: the same HTTP
 * server (a trivial tool, JSON answers, keep-alive connections) with in-process sessions and
 * with RedisSessionStore on a local redis-server (one LOAD script per request, which also
 * pushes the session's expiry back). `ping` is almost nothing but the lookup; `tools/call`
 * adds the layer. The shared session is served alternately by two replicas, as a balancer
 * without stickiness would. Each run also times the two hops between replicas that carry no
 * request: a signal (a cancellation, sealed with its time and nonce, checked for freshness) from
 * one replica to another, and a stream event (appended on one replica, heard by the one holding
 * the stream). Prints each run and the median and spread of the runs.
 *   pnpm --filter @cloudg/redis bench:sessions [-- --runs 5]
 */
import { Agent, request } from 'node:http';
import { createLogger, Layer, Registry } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { type RunningHttpServer, type SharedSessionSignal, serveHttp } from '@cloudg/transports';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from '../test/support/redis-server.js';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const CALLS = 600;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
/** Sessions, their log and signals are sealed with the vault key, as a server seals them. */
const sealer = createVaultSealer({ key: 'bench-session-key' });

function layer(): Layer {
  const registry = new Registry();
  registry.tool({ name: 'hello', readOnly: true, handler: () => ({ hi: true }) });
  return new Layer({ registry, logger: createLogger({ level: 'silent' }) });
}

function post(port: number, body: unknown, session?: string): Promise<{ session: string | undefined }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        agent,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`status ${res.statusCode}`));
          else resolve({ session: res.headers['mcp-session-id'] as string | undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function open(port: number): Promise<string> {
  const { session } = await post(port, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  return session as string;
}

/** p50 of `count` hops: `send(i)` on one replica until `heard` resolves on the other. */
async function hops(count: number, send: (i: number) => Promise<void>, hear: (i: number) => Promise<void>) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const heard = hear(i);
    await send(i);
    await heard;
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return percentile(times, 50);
}

/** A promise per awaited signal: resolves when `match` holds for a signal heard by `state`. */
function listen(state: RedisSharedState) {
  let waiting: { match: (s: SharedSessionSignal) => boolean; resolve: () => void } | undefined;
  state.sessions.onSignal((signal) => {
    if (waiting?.match(signal)) {
      waiting.resolve();
      waiting = undefined;
    }
  });
  return (match: (s: SharedSessionSignal) => boolean) =>
    new Promise<void>((resolve) => {
      waiting = { match, resolve };
    });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Local and shared requests alternately, so load spikes on this machine hit both alike. */
async function measure(
  message: (i: number) => Record<string, unknown>,
  local: { port: number; session: string },
  shared: { ports: number[]; session: string },
) {
  const tl: number[] = [];
  const ts: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let start = performance.now();
    await post(local.port, message(i), local.session);
    tl.push(performance.now() - start);
    start = performance.now();
    await post(shared.ports[i % shared.ports.length] as number, message(i), shared.session);
    ts.push(performance.now() - start);
  }
  tl.sort((x, y) => x - y);
  ts.sort((x, y) => x - y);
  return { local: percentile(tl, 50), shared: percentile(ts, 50), sharedP95: percentile(ts, 95) };
}

const redis = await TestRedis.start();
const states: RedisSharedState[] = [];
const servers: RunningHttpServer[] = [];
try {
  const local = await serveHttp(layer(), { port: 0 });
  servers.push(local);
  const sharedPorts: number[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await createRedisSharedState(redis.url, { keyPrefix: 'bench:' });
    state.sealWith(sealer);
    states.push(state);
    const server = await serveHttp(layer(), { port: 0, sessions: state.sessions, changes: state.changes });
    servers.push(server);
    sharedPorts.push(server.port);
  }
  const ping = (i: number) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' });
  const call = (i: number) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'hello', arguments: {} },
  });
  const rows: { ping: number; call: number; p95: number; signal: number; event: number }[] = [];
  const [x, y] = states as [RedisSharedState, RedisSharedState];
  const heardOnY = listen(y);
  const heardOnX = listen(x);
  const binding = JSON.stringify(['bench', ['default']]);
  const hopLimits = { maxSessions: 100_000, maxPerPrincipal: 100_000, idleMs: 60_000 };
  for (let run = 1; run <= RUNS; run++) {
    const localSession = { port: local.port, session: await open(local.port) };
    const sharedSession = { ports: sharedPorts, session: await open(sharedPorts[0] as number) };
    // Warm-up: both replicas hold a view of the session, scripts are loaded.
    await measure(ping, localSession, sharedSession);
    const p = await measure(ping, localSession, sharedSession);
    const c = await measure(call, localSession, sharedSession);
    const signal = await hops(
      300,
      (i) => x.sessions.signal(undefined, { type: 'cancel', session: `hop${run}`, requestId: i }),
      (i) => heardOnY((s) => s.type === 'cancel' && s.requestId === i),
    );
    // A stream held by X, appended to by Y.
    const streamed = `stream${run}`;
    await x.sessions.open(
      streamed,
      { binding, principalId: 'bench', initialized: true, logLevel: 'info', subscriptions: {} },
      hopLimits,
    );
    await x.sessions.claimStream(streamed, undefined);
    const event = await hops(
      300,
      (i) => y.sessions.append(streamed, { jsonrpc: '2.0', method: 'notifications/message', params: { i } }),
      (i) =>
        heardOnX(
          (s) =>
            s.type === 'event' &&
            s.session === streamed &&
            (s.event.message as { params?: { i?: number } }).params?.i === i,
        ),
    );
    await x.sessions.releaseStream(streamed);
    const row = { ping: p.shared - p.local, call: c.shared - c.local, p95: c.sharedP95, signal, event };
    rows.push(row);
    console.log(
      `run ${run}: ping p50 local ${p.local.toFixed(3)} ms, shared ${p.shared.toFixed(3)} ms (+${row.ping.toFixed(3)}); ` +
        `tools/call p50 local ${c.local.toFixed(3)} ms, shared ${c.shared.toFixed(3)} ms (+${row.call.toFixed(3)}), shared p95 ${c.sharedP95.toFixed(3)} ms; ` +
        `signal p50 ${signal.toFixed(3)} ms, stream event p50 ${event.toFixed(3)} ms`,
    );
  }
  // An announcement writes into every initialized session in one script: its cost grows with them.
  const limits = { maxSessions: 100_000, maxPerPrincipal: 100_000, idleMs: 60_000 };
  const announceTimes: string[] = [];
  for (const count of [100, 1000]) {
    const prefix = `announce${count}:`;
    const many = await createRedisSharedState(redis.url, { keyPrefix: prefix });
    many.sealWith(sealer);
    states.push(many);
    for (let i = 0; i < count; i++) {
      const id = `s${i}`;
      const binding = JSON.stringify(['bench', ['default']]);
      await many.sessions.open(
        id,
        { binding, principalId: 'bench', initialized: false, logLevel: 'info', subscriptions: {} },
        limits,
      );
      await many.sessions.update(id, { initialized: true });
    }
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      // Until every session's notification is sealed and logged (announce does the same, unawaited).
      await many.changes.spread('tools', undefined);
      times.push(performance.now() - start);
    }
    times.sort((x, y) => x - y);
    announceTimes.push(`${count} sessions ${percentile(times, 50).toFixed(2)} ms`);
  }
  console.log(`announce (p50 of 20, one run): ${announceTimes.join(', ')}`);
  const summary = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    return `median ${percentile(sorted, 50).toFixed(3)} ms (spread ${sorted[0]?.toFixed(3)} to ${sorted.at(-1)?.toFixed(3)})`;
  };
  console.log(`added p50 per ping:       ${summary(rows.map((r) => r.ping))}`);
  console.log(`added p50 per tools/call: ${summary(rows.map((r) => r.call))}`);
  console.log(`signal hop p50:           ${summary(rows.map((r) => r.signal))}`);
  console.log(`stream event hop p50:     ${summary(rows.map((r) => r.event))}`);
} finally {
  for (const server of servers) await server.close();
  for (const state of states) await state.close();
  agent.destroy();
  await redis.stop();
}
