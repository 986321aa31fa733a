/**
 * What each way of serving a layer costs: a 2026-07-28 `tools/call` over HTTP against the native
 * server, the same server mounted in an app's `node:http` server, and the sdk flavor (the official
 * SDK's handler with the layer registered), with the SDK's own echo server for scale. It sits beside the transports benchmark
 * (packages/transports/bench) rather than in it because the sdk flavor lives in this package,
 * which depends on the transports, not the other way round.
 *
 *   pnpm --filter @cloudg/adapters bench   (BENCH_SECONDS=5, BENCH_ROUNDS=3, BENCH_CONNECTIONS=16)
 *
 * Servers run in child processes (servers.mjs) and are interleaved each round; medians are shown,
 * with each round's requests/s so the spread is visible.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const KINDS = ['native', 'mounted', 'sdk', 'sdk-plain'] as const;
type Kind = (typeof KINDS)[number];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { text: 'hello' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    },
  },
});
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  failures: number;
}

function startChild(kind: Kind): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL('./servers.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: (message as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function measure(kind: Kind): Promise<Figures> {
  const { child, port } = await startChild(kind);
  try {
    const run = (duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}/mcp`,
        method: 'POST',
        headers: HEADERS,
        body: BODY,
        connections: CONNECTIONS,
        duration,
      });
    await run(2); // warm-up
    child.send('start');
    const result = await run(SECONDS);
    const cpuMicros = await new Promise<number>((resolve) => {
      child.once('message', (m) => resolve((m as { cpuMicros: number }).cpuMicros));
      child.send('stop');
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpuPerRequest: cpuMicros / Math.max(1, result.requests.total),
      failures: result.errors + result.timeouts + result.non2xx,
    };
  } finally {
    child.kill();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main(): Promise<void> {
  console.log(`tools/call echo, 2026-07-28, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s\n`);
  const runs = new Map<Kind, Figures[]>(KINDS.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of KINDS) runs.get(kind)?.push(await measure(kind));
  }
  console.log('flavor     req/s (median)  per round               p50 ms  p99 ms  cpu µs/req  failures');
  const medians = new Map<Kind, number>();
  for (const kind of KINDS) {
    const r = runs.get(kind) ?? [];
    const rps = median(r.map((x) => x.rps));
    medians.set(kind, rps);
    console.log(
      `${kind.padEnd(9)}  ${rps.toFixed(0).padStart(14)}  ${r
        .map((x) => x.rps.toFixed(0))
        .join(' / ')
        .padEnd(22)}  ` +
        `${String(median(r.map((x) => x.p50))).padStart(6)}  ${String(median(r.map((x) => x.p99))).padStart(6)}  ` +
        `${median(r.map((x) => x.cpuPerRequest))
          .toFixed(0)
          .padStart(10)}  ${String(r.reduce((n, x) => n + x.failures, 0)).padStart(8)}`,
    );
  }
  const native = medians.get('native') ?? 1;
  console.log(
    `\nmounted / native = ${((medians.get('mounted') ?? 0) / native).toFixed(2)}x, ` +
      `sdk / native = ${((medians.get('sdk') ?? 0) / native).toFixed(2)}x, ` +
      `sdk / sdk-plain = ${((medians.get('sdk') ?? 0) / (medians.get('sdk-plain') ?? 1)).toFixed(2)}x`,
  );
}

await main();
