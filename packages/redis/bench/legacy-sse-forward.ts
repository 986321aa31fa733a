/**
 * What the deprecated HTTP+SSE transport pays behind several replicas: the time from a POST's
 * start to its answer on the client's stream, for a trivial `tools/call`, with in-process
 * sessions (one server, no Redis), with RedisLegacySseRelay and the POST reaching the replica
 * holding the stream (no Redis on the way), and with the POST reaching another replica (a
 * lookup script, a sealed publish, the holder's open and freshness check). The three are
 * measured alternately, so load spikes on this machine hit them alike. Prints each run and the
 * median and spread of the runs.
 *   pnpm --filter @cloudg/redis bench:legacy-sse [-- --runs 5]
 */
import { Agent, type IncomingMessage, request } from 'node:http';
import { createLogger, Layer, Registry } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { type RunningHttpServer, serveHttp } from '@cloudg/transports';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from '../test/support/redis-server.js';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const CALLS = 400;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const sealer = createVaultSealer({ key: 'bench-legacy-sse-key' });

function layer(): Layer {
  const registry = new Registry();
  registry.tool({ name: 'hello', readOnly: true, handler: () => ({ hi: true }) });
  return new Layer({ registry, logger: createLogger({ level: 'silent' }) });
}

/** A client's stream: the endpoint it names, and a wait for the answer to each request id. */
async function openStream(port: number) {
  const waiting = new Map<number, () => void>();
  let response: IncomingMessage | undefined;
  const endpoint = await new Promise<string>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/sse', headers: { accept: 'text/event-stream' } },
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
            else {
              const id = (JSON.parse(data) as { id?: number }).id;
              if (id !== undefined) waiting.get(id)?.();
            }
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
  return {
    endpoint,
    answered: (id: number) => new Promise<void>((resolve) => waiting.set(id, resolve)),
    close: () => response?.destroy(),
  };
}

function post(port: number, path: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          (res.statusCode ?? 0) === 202 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const median = (values: number[]) =>
  percentile(
    [...values].sort((x, y) => x - y),
    50,
  );
const spread = (values: number[]) => `${Math.min(...values).toFixed(3)}..${Math.max(...values).toFixed(3)}`;

type Stream = Awaited<ReturnType<typeof openStream>>;

/** POST `tools/call` to `port` on `stream`'s session and wait for its answer on the stream. */
async function roundTrip(port: number, stream: Stream, id: number): Promise<number> {
  const start = performance.now();
  const answered = stream.answered(id);
  await post(port, stream.endpoint, {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'hello', arguments: {} },
  });
  await answered;
  return performance.now() - start;
}

const redis = await TestRedis.start();
const states: RedisSharedState[] = [];
const servers: RunningHttpServer[] = [];
try {
  const local = await serveHttp(layer(), { port: 0, transport: 'sse' });
  servers.push(local);
  const ports: number[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await createRedisSharedState(redis.url, { keyPrefix: 'bench-legacy:' });
    state.sealWith(sealer);
    states.push(state);
    const server = await serveHttp(layer(), {
      port: 0,
      transport: 'sse',
      sessions: state.sessions,
      changes: state.changes,
      legacySseRelay: state.legacySse,
    });
    servers.push(server);
    ports.push(server.port);
  }
  const [holder, other] = ports as [number, number];
  const rows: { local: number; holder: number; forwarded: number; p95: number }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const localStream = await openStream(local.port);
    const sharedStream = await openStream(holder);
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2024-11-05',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    };
    for (const [port, stream] of [
      [local.port, localStream],
      [holder, sharedStream],
    ] as const) {
      const answered = stream.answered(0);
      await post(port, stream.endpoint, init);
      await answered;
    }
    const times = { local: [] as number[], holder: [] as number[], forwarded: [] as number[] };
    // The first 50 of each warm up (scripts loaded, connections open) and are not counted.
    for (let i = 1; i <= CALLS + 50; i++) {
      const l = await roundTrip(local.port, localStream, i);
      const h = await roundTrip(holder, sharedStream, 2 * i);
      const f = await roundTrip(other, sharedStream, 2 * i + 1);
      if (i <= 50) continue;
      times.local.push(l);
      times.holder.push(h);
      times.forwarded.push(f);
    }
    localStream.close();
    sharedStream.close();
    const sorted = Object.fromEntries(
      Object.entries(times).map(([k, v]) => [k, [...v].sort((x, y) => x - y)]),
    ) as typeof times;
    const row = {
      local: percentile(sorted.local, 50),
      holder: percentile(sorted.holder, 50),
      forwarded: percentile(sorted.forwarded, 50),
      p95: percentile(sorted.forwarded, 95),
    };
    rows.push(row);
    console.log(
      `run ${run}: tools/call POST to answer on the stream, p50: in-process ${row.local.toFixed(3)} ms, ` +
        `Redis on the holder ${row.holder.toFixed(3)} ms, forwarded ${row.forwarded.toFixed(3)} ms ` +
        `(+${(row.forwarded - row.local).toFixed(3)}), forwarded p95 ${row.p95.toFixed(3)} ms`,
    );
  }
  const pick = (key: keyof (typeof rows)[number]) => rows.map((r) => r[key]);
  const added = rows.map((r) => r.forwarded - r.local);
  console.log(
    `median of ${RUNS} runs (spread): in-process ${median(pick('local')).toFixed(3)} (${spread(pick('local'))}) ms, ` +
      `on the holder ${median(pick('holder')).toFixed(3)} (${spread(pick('holder'))}) ms, ` +
      `forwarded ${median(pick('forwarded')).toFixed(3)} (${spread(pick('forwarded'))}) ms, ` +
      `added by forwarding ${median(added).toFixed(3)} (${spread(added)}) ms, forwarded p95 ${median(pick('p95')).toFixed(3)} ms`,
  );
} finally {
  for (const server of servers) await server.close();
  for (const state of states) await state.close();
  agent.destroy();
  await redis.stop();
}
