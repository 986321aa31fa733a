/**
 * What each way of serving a layer costs: a 2026-07-28 `tools/call` over HTTP against the native
 * server, the same server mounted in an app's `node:http` server, and the sdk flavor (the official
 * SDK's handler with the layer registered), with the SDK's own echo server for scale; then a
 * 2025-11-25 `tools/call` on an initialized session against native, sdk and the fastmcp flavor
 * (which speaks only that era), and what opening a session (`initialize`) costs on each. It sits
 * beside the transports benchmark
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
const HANDSHAKE_KINDS = ['native', 'sdk', 'fastmcp'] as const;
type Kind = (typeof KINDS)[number] | (typeof HANDSHAKE_KINDS)[number];
type Era = '2026-07-28' | '2025-11-25';
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
const LEGACY_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hello' } },
});
const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/**
 * Open a handshake-era session (`initialize`, then `notifications/initialized`) and return the
 * headers later requests carry, with how long `initialize` took. A stateless server (the sdk
 * flavor) sends no session id.
 */
async function openSession(port: number): Promise<{ headers: Record<string, string>; ms: number }> {
  const url = `http://127.0.0.1:${port}/mcp`;
  const started = performance.now();
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  });
  await init.text();
  const ms = performance.now() - started;
  const session = init.headers.get('mcp-session-id');
  const headers: Record<string, string> = {
    ...LEGACY_HEADERS,
    ...(session ? { 'mcp-session-id': session } : {}),
  };
  const done = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return { headers, ms };
}

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

async function measure(kind: Kind, era: Era): Promise<Figures> {
  const { child, port } = await startChild(kind);
  try {
    const session = era === '2025-11-25' ? await openSession(port) : undefined;
    const run = (duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}/mcp`,
        method: 'POST',
        headers: session ? session.headers : HEADERS,
        body: session ? LEGACY_BODY : BODY,
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

/** Run `kinds` interleaved for ROUNDS rounds in one era; print the table; return the median req/s. */
async function table(era: Era, kinds: readonly Kind[]): Promise<Map<Kind, number>> {
  console.log(`tools/call echo, ${era}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s\n`);
  const runs = new Map<Kind, Figures[]>(kinds.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of kinds) runs.get(kind)?.push(await measure(kind, era));
  }
  console.log('flavor     req/s (median)  per round               p50 ms  p99 ms  cpu µs/req  failures');
  const medians = new Map<Kind, number>();
  for (const kind of kinds) {
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
  return medians;
}

/** Median and spread of opening a handshake-era session on each kind (5 sessions per kind). */
async function handshakes(kinds: readonly Kind[]): Promise<void> {
  console.log('\ninitialize, 2025-11-25, 5 sessions each: median ms (min-max)');
  for (const kind of kinds) {
    const { child, port } = await startChild(kind);
    try {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push((await openSession(port)).ms);
      console.log(
        `${kind.padEnd(9)}  ${median(times).toFixed(0).padStart(6)}  (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)})`,
      );
    } finally {
      child.kill();
    }
  }
}

async function main(): Promise<void> {
  const modern = await table('2026-07-28', KINDS);
  const native = modern.get('native') ?? 1;
  console.log(
    `\nmounted / native = ${((modern.get('mounted') ?? 0) / native).toFixed(2)}x, ` +
      `sdk / native = ${((modern.get('sdk') ?? 0) / native).toFixed(2)}x, ` +
      `sdk / sdk-plain = ${((modern.get('sdk') ?? 0) / (modern.get('sdk-plain') ?? 1)).toFixed(2)}x\n`,
  );
  const legacy = await table('2025-11-25', HANDSHAKE_KINDS);
  const legacyNative = legacy.get('native') ?? 1;
  console.log(
    `\nsdk / native = ${((legacy.get('sdk') ?? 0) / legacyNative).toFixed(2)}x, ` +
      `fastmcp / native = ${((legacy.get('fastmcp') ?? 0) / legacyNative).toFixed(2)}x`,
  );
  await handshakes(HANDSHAKE_KINDS);
}

await main();
