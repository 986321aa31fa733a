/**
 * Throughput and latency of a 2026-07-28 `tools/call` over HTTP: the native server against the
 * official SDK's `createMcpHandler` + `toNodeHandler`, and a bare `node:http` JSON echo as the
 * ceiling. Each server runs in its own child process (`servers.mjs`, plain node on the built
 * packages); autocannon drives it from this one.
 *
 *   pnpm --filter @cloudg/transports bench   (BENCH_SECONDS=5, BENCH_ROUNDS=3, BENCH_CONNECTIONS=16)
 *
 * Targets: native >= 10x the SDK's requests/s, >= 1/4 of the bare echo's, p99 < 10 ms.
 *
 * Then overload: a fresh native server answering a realistic `find_assets` (servers.mjs) to 50,
 * 150 and 300 connections opened at once (BENCH_OVERLOAD=50,150,300, BENCH_OVERLOAD_SECONDS=10,
 * BENCH_ROUNDS rounds each; BENCH_OVERLOAD= skips it): p50, p99 and maximum latency, requests
 * shed with 503 and requests left without an answer for 10 s. Target: no request over 2 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

type Kind = 'native' | 'native-json' | 'native-find' | 'sdk' | 'bare';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hello' }, _meta: ENVELOPE },
});
const HEADERS = {
  'content-type': 'application/json',
  accept: process.env.BENCH_ACCEPT ?? 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

function startChild(kind: Kind): Promise<{ child: ChildProcess; port: number }> {
  const script = fileURLToPath(new URL('./servers.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, kind], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: (message as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as { cpuMicros: number }).cpuMicros));
    child.send('stop');
  });
}

interface Figures {
  kind: Kind;
  /** Server CPU time (user + system) per request, in microseconds. */
  cpuPerRequest: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(kind: Kind): Promise<Figures> {
  const { child, port } = await startChild(kind);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    // A short warm-up so JIT and connection setup do not count.
    await autocannon({
      url,
      method: 'POST',
      headers: HEADERS,
      body: BODY,
      connections: CONNECTIONS,
      duration: 2,
    });
    child.send('start');
    const result = await autocannon({
      url,
      method: 'POST',
      headers: HEADERS,
      body: BODY,
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    const cpuMicros = await cpuOf(child);
    return {
      kind,
      cpuPerRequest: cpuMicros / Math.max(1, result.requests.total),
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    };
  } finally {
    child.kill();
  }
}

const KINDS = ['bare', 'sdk', 'native', 'native-json'] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of each figure over the rounds, errors summed. */
function combine(kind: Kind, runs: Figures[]): Figures {
  return {
    kind,
    cpuPerRequest: median(runs.map((r) => r.cpuPerRequest)),
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  };
}

async function main(): Promise<void> {
  console.log(
    `tools/call echo, 2026-07-28, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per server ` +
      '(servers interleaved each round; medians shown)\n',
  );
  // Interleaved rounds: a slow spell of a shared machine then touches every server, not just one.
  const runs = new Map<Kind, Figures[]>(KINDS.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of KINDS) runs.get(kind)!.push(await measure(kind));
  }
  const rows = KINDS.map((kind) => combine(kind, runs.get(kind)!));
  console.log('server       req/s      p50 ms  p99 ms  cpu µs/req  errors  non-2xx');
  for (const r of rows) {
    console.log(
      `${r.kind.padEnd(11)}  ${r.rps.toFixed(0).padStart(8)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${r.cpuPerRequest.toFixed(0).padStart(10)}  ${String(r.errors).padStart(6)}  ${String(r.non2xx).padStart(7)}`,
    );
  }
  const [bare, sdk, native, nativeJson] = rows as [Figures, Figures, Figures, Figures];
  const perRound = (a: Kind, b: Kind) =>
    runs
      .get(a)!
      .map((r, i) => (r.rps / runs.get(b)![i]!.rps).toFixed(1))
      .join(', ');
  console.log('');
  console.log(
    `native / sdk  = ${(native.rps / sdk.rps).toFixed(1)}x   (target >= 10x; per round: ${perRound('native', 'sdk')})`,
  );
  console.log(`native-json / sdk = ${(nativeJson.rps / sdk.rps).toFixed(1)}x (both answer JSON)`);
  console.log(`native / bare = ${(native.rps / bare.rps).toFixed(2)}    (target >= 0.25)`);
  console.log(`native p99    = ${native.p99} ms  (target < 10 ms)`);
  console.log(
    `server CPU per request: sdk / native = ${(sdk.cpuPerRequest / native.cpuPerRequest).toFixed(1)}x, ` +
      `native / bare = ${(native.cpuPerRequest / bare.cpuPerRequest).toFixed(1)}x`,
  );
}

const OVERLOAD_LEVELS = (process.env.BENCH_OVERLOAD ?? '50,150,300')
  .split(',')
  .filter((v) => v.trim() !== '')
  .map(Number);
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 10);
/** A request without an answer after this long counts as lost (autocannon then reconnects). */
const OVERLOAD_TIMEOUT_S = 10;
const FIND_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'find_assets', arguments: { provider: 'aws' }, _meta: ENVELOPE },
});
const FIND_HEADERS = { ...HEADERS, 'mcp-name': 'find_assets' };

interface OverloadFigures {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  shed: number;
  lost: number;
  other: number;
}

/** One overload run: every connection opens at once against a fresh server, as in a reconnect storm. */
async function overloadRun(connections: number): Promise<OverloadFigures> {
  const { child, port } = await startChild('native-find');
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const options = { url, method: 'POST' as const, headers: FIND_HEADERS, body: FIND_BODY };
    // JIT warm-up on a few connections, closed before the measured run opens its own.
    await autocannon({ ...options, connections: 4, duration: 1 });
    const result = await autocannon({
      ...options,
      connections,
      duration: OVERLOAD_SECONDS,
      timeout: OVERLOAD_TIMEOUT_S,
    });
    const stats = (result as unknown as { statusCodeStats: Record<string, { count: number }> })
      .statusCodeStats;
    const shed = stats['503']?.count ?? 0;
    const ok = stats['200']?.count ?? 0;
    return {
      requests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      shed,
      lost: result.timeouts,
      other: result.requests.total - ok - shed,
    };
  } finally {
    child.kill();
  }
}

async function overload(): Promise<void> {
  if (OVERLOAD_LEVELS.length === 0) return;
  console.log(
    `\noverload: tools/call find_assets (2,000 assets, 50-item page), 2026-07-28, connections opened at once, ` +
      `${ROUNDS} rounds of ${OVERLOAD_SECONDS} s per level; median [min-max] over rounds\n`,
  );
  console.log('conns   requests        p50 ms          p99 ms          max ms            shed       lost');
  let worst = 0;
  for (const connections of OVERLOAD_LEVELS) {
    const runs: OverloadFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await overloadRun(connections));
    const cell = (pick: (r: OverloadFigures) => number, width: number) => {
      const values = runs.map(pick);
      return `${median(values)} [${Math.min(...values)}-${Math.max(...values)}]`.padStart(width);
    };
    worst = Math.max(worst, ...runs.map((r) => r.max));
    const other = runs.reduce((n, r) => n + r.other, 0);
    console.log(
      `${String(connections).padStart(5)}  ${cell((r) => r.requests, 9)}  ${cell((r) => r.p50, 14)}  ${cell((r) => r.p99, 14)}  ` +
        `${cell((r) => r.max, 16)}  ${cell((r) => r.shed, 12)}  ${cell((r) => r.lost, 9)}` +
        (other > 0 ? `  (${other} other answers)` : ''),
    );
  }
  console.log(`\nworst single request: ${worst} ms  (target: none over 2000 ms)`);
}

await main();
await overload();
