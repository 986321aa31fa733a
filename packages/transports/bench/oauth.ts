/**
 * What checking an OAuth access token costs per request: the same 2026-07-28 `tools/call echo`
 * against the native server with a static bearer token and with a JWT access token from an
 * in-process oidc-provider (signature, issuer, audience and expiry checked on every request; the
 * key set cached). Server, authorization server and load generator share this process, so the
 * figures compare the two, not the server's ceiling (bench/http.ts measures that).
 *
 * Then the CPU time of the token check alone (BENCH_CHECKS=2000 per round).
 *
 *   pnpm --filter @cloudg/transports exec tsx bench/oauth.ts   (BENCH_SECONDS=3, BENCH_ROUNDS=3, BENCH_CONNECTIONS=16)
 */
import autocannon from 'autocannon';
import { OAuthResourceServer } from '../src/auth/oauth/resource-server.js';
import { serveHttp, TokenAuth } from '../src/index.js';
import { startAuthorizationServer } from '../test/support/oidc.js';
import { buildLayer } from '../test/support/test-layer.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
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

async function run(url: string, token: string): Promise<{ rps: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    body: BODY,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      authorization: `Bearer ${token}`,
    },
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;

const as = await startAuthorizationServer();
const server = await serveHttp(buildLayer(), {
  port: 0,
  jsonResponse: true,
  authTokens: ['static-token:analyst:svc'],
  oauth: { issuer: as.issuer },
});
const jwt = await as.clientCredentials('ci-bot', { resource: server.url });
const rows: Array<[string, string]> = [
  ['static token', 'static-token'],
  ['JWT access token', jwt],
];
for (const [label, token] of rows) {
  await run(server.url, token); // warm-up: JIT, and for the JWT the issuer metadata and keys
  const rounds = [];
  for (let i = 0; i < ROUNDS; i += 1) rounds.push(await run(server.url, token));
  const rps = rounds.map((r) => r.rps);
  const p99 = rounds.map((r) => r.p99);
  const failed = rounds.reduce((n, r) => n + r.non2xx, 0);
  console.log(
    `${label.padEnd(18)} req/s median ${median(rps).toFixed(0)} (${spread(rps)}), p99 ms median ${median(p99)} (${spread(p99)}), non-2xx ${failed}`,
  );
}

// CPU time of the check alone, which the machine's load does not inflate the way it does wall time.
const CHECKS = Number(process.env.BENCH_CHECKS ?? 2000);
const oauth = new OAuthResourceServer({ issuer: as.issuer, resource: server.url });
const tokens = TokenAuth.fromSpecs(['static-token:analyst:svc']);
await oauth.authenticate(`Bearer ${jwt}`);
for (const [label, check] of [
  ['static token', async () => tokens.authenticate('Bearer static-token')],
  ['JWT access token', () => oauth.authenticate(`Bearer ${jwt}`)],
] as const) {
  const perCheck: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const before = process.cpuUsage();
    for (let i = 0; i < CHECKS; i += 1) await check();
    const used = process.cpuUsage(before);
    perCheck.push((used.user + used.system) / CHECKS);
  }
  console.log(
    `${label.padEnd(18)} check CPU µs median ${median(perCheck).toFixed(1)} (${Math.min(...perCheck).toFixed(1)}-${Math.max(...perCheck).toFixed(1)})`,
  );
}
await server.close();
await as.close();
