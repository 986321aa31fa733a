/**
 * Throughput of one replica against three behind Debian's nginx, all sharing one redis-server.
 * Every process runs on this machine: three `cloudg-mcp serve` replicas (from source, with
 * --redis-url and the sample estate), one nginx with its own config in a temporary directory and
 * two listeners on free ports (one upstream of replica 1 only, one of all three), and autocannon
 * calling `get_asset` (a 2026-era stateless call) through each in turn. Both figures go through
 * nginx, so the ratio compares one replica with three, not nginx with none.
 *
 *   pnpm --filter @cloudg/redis bench:replicas [-- --rounds 3 --seconds 5]
 *
 * Needs nginx (apt-get install -y nginx) and redis-server. Prints each round, then the median and
 * spread of calls/s for one and three replicas and of their ratio.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { TestRedis } from '../test/support/redis-server.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const ROUNDS = arg('rounds', 3);
const SECONDS = arg('seconds', 5);
const CONNECTIONS = 24;
const REPLICAS = 3;
const BIN = fileURLToPath(new URL('../../../apps/cli/src/bin.ts', import.meta.url));

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const REQUEST = {
  method: 'POST' as const,
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'get_asset',
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_asset', arguments: { ref: 'web-1' }, _meta: ENVELOPE },
  }),
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replica on port ${port} not ready within ${ms} ms`);
}

function startReplica(port: number, redisUrl: string): ChildProcess {
  const args = ['--import', 'tsx', '--conditions=@cloudg/source', BIN, 'serve', '--transport', 'http'];
  args.push('--host', '127.0.0.1', '--port', String(port), '--sample', '--policy', 'open');
  args.push('--redis-url', redisUrl, '--log-level', 'ERROR');
  return spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CLOUDG_MCP_VAULT_KEY: 'bench-replicas-key', CLOUDG_MCP_REDIS_URL: '' },
  });
}

/** nginx with two listeners: `one` to replica 1 only, `three` to all of them. */
function startNginx(dir: string, one: number, three: number, replicas: number[]): ChildProcess {
  const upstream = (name: string, ports: number[]) =>
    `upstream ${name} {\n${ports.map((p) => `  server 127.0.0.1:${p};`).join('\n')}\n  keepalive 64;\n}`;
  const server = (port: number, name: string) => `server {
  listen 127.0.0.1:${port};
  location / {
    proxy_pass http://${name};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    # The replicas listen on loopback and check Host (DNS rebinding): pass the client's on.
    proxy_set_header Host $http_host;
    proxy_buffering off;
  }
}`;
  const conf = `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
${upstream('one', replicas.slice(0, 1))}
${upstream('three', replicas)}
${server(one, 'one')}
${server(three, 'three')}
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  return spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function callsPerSecond(port: number, seconds: number): Promise<{ rps: number; errors: number }> {
  const result = await autocannon({
    ...REQUEST,
    url: `http://127.0.0.1:${port}/mcp`,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return { rps: result.requests.average, errors: result.errors + result.timeouts + result.non2xx };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const spread = (xs: number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}..${Math.max(...xs).toFixed(digits)}`;

async function main(): Promise<void> {
  execFileSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' });
  const redis = await TestRedis.start();
  const dir = mkdtempSync(join(tmpdir(), 'cloudg-nginx-'));
  // nginx's workers drop to an unprivileged user when started as root: they must reach the directory.
  chmodSync(dir, 0o755);
  const ports = await Promise.all(Array.from({ length: REPLICAS }, freePort));
  const replicas = ports.map((p) => startReplica(p, redis.url));
  let nginx: ChildProcess | undefined;
  try {
    await Promise.all(ports.map((p) => waitReady(p, 120_000)));
    const [one, three] = [await freePort(), await freePort()];
    nginx = startNginx(dir, one, three, ports);
    await waitReady(one, 10_000).catch((error: unknown) => {
      const log = join(dir, 'error.log');
      if (existsSync(log)) process.stderr.write(readFileSync(log, 'utf8'));
      throw error;
    });
    // Warm-up: the JIT of every replica, and nginx's keep-alive connections.
    await callsPerSecond(three, 2);
    await callsPerSecond(one, 2);
    const rounds: { one: number; three: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await callsPerSecond(one, SECONDS);
      const b = await callsPerSecond(three, SECONDS);
      rounds.push({ one: a.rps, three: b.rps });
      console.log(
        `round ${round}: one replica ${a.rps.toFixed(0)} calls/s (${a.errors} errors), three replicas ${b.rps.toFixed(0)} calls/s (${b.errors} errors), ratio ${(b.rps / a.rps).toFixed(2)}`,
      );
    }
    const ones = rounds.map((r) => r.one);
    const threes = rounds.map((r) => r.three);
    const ratios = rounds.map((r) => r.three / r.one);
    console.log('');
    console.log(`one replica    calls/s median ${median(ones).toFixed(0)}  spread ${spread(ones, 0)}`);
    console.log(`three replicas calls/s median ${median(threes).toFixed(0)}  spread ${spread(threes, 0)}`);
    console.log(`ratio three / one      median ${median(ratios).toFixed(2)}  spread ${spread(ratios, 2)}`);
  } finally {
    nginx?.kill('SIGTERM');
    for (const r of replicas) r.kill('SIGTERM');
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
