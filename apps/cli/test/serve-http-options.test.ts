/**
 * MCP.md 5.3: the HTTP options of `serve` reach the server. Runs the built command as a real
 * process with several options at once and checks each through plain HTTP.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const AUDIT = join(mkdtempSync(join(tmpdir(), 'cloudg-serve-')), 'audit.jsonl');
let child: ChildProcess | undefined;
let base = '';
let stderr = '';

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--path',
      '/cloudg',
      '--json-response',
      '--page-size',
      '5',
      '--auth-token',
      'env:SERVE_TEST_TOKEN:analyst:alice',
      '--allowed-host',
      '127.0.0.1:*',
      '--cors-origin',
      'http://app.example',
      '--audit-log',
      AUDIT,
      '--public-metrics',
      '--pretty-json',
    ],
    { env: { ...process.env, SERVE_TEST_TOKEN: 's3cret' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  base = await new Promise<string>((resolve, reject) => {
    child!.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)\/cloudg/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'serve-test', version: '1' },
};

function post(
  path: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer s3cret',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }),
  });
}

describe('serve --transport http options (MCP.md 5.3)', () => {
  it('--path moves the endpoint; --auth-token from env: requires the token', async () => {
    expect((await post('/mcp', 'tools/list', {})).status).toBe(404);
    const anonymous = await post('/cloudg', 'tools/list', {}, { authorization: '' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="cloudg-mcp"');
  });

  it('--page-size pages tools/list; --json-response answers tools/call with JSON, not SSE', async () => {
    const list = await post('/cloudg', 'tools/list', {});
    const page = (await list.json()) as { result: { tools: unknown[]; nextCursor?: string } };
    expect(page.result.tools).toHaveLength(5);
    expect(typeof page.result.nextCursor).toBe('string');

    const call = await post('/cloudg', 'tools/call', { name: 'workspace_status', arguments: {} });
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toBe('application/json');
    const body = (await call.json()) as { result: { isError: boolean } };
    expect(body.result.isError).toBe(false);
  });

  it('without --dataset or --sample the server starts empty and points the agent at load_dataset', async () => {
    const call = await post('/cloudg', 'tools/call', { name: 'workspace_status', arguments: {} });
    const { result } = (await call.json()) as {
      result: {
        structuredContent: { datasets: unknown[]; next_steps: string[] };
        content: Array<{ text: string }>;
      };
    };
    expect(result.structuredContent.datasets).toEqual([]);
    expect(result.structuredContent.next_steps.join(' ')).toContain('load_dataset');
    // --pretty-json: the text block is indented JSON again.
    expect(result.content[0]!.text).toMatch(/^\{\n {2}"/);
  });

  it('/metrics is open to a scraper with --public-metrics, and /readyz says ready', async () => {
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP /m);
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('--allowed-host replaces the Host list; --cors-origin grants CORS to that origin only', async () => {
    // fetch will not send a Host of our choosing: a plain node:http request does. `localhost` is
    // on the default loopback list, but the given list replaced it.
    const url = new URL(`${base}/cloudg`);
    const wrongHost = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(wrongHost).toBe(421);
    const preflight = await fetch(`${base}/cloudg`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const other = await post('/cloudg', 'tools/list', {}, { origin: 'http://other.example' });
    expect(other.status).toBe(403);
  });

  it('--audit-log records the calls with the token principal', async () => {
    await post('/cloudg', 'tools/call', { name: 'count_assets', arguments: {} });
    const lines = readFileSync(AUDIT, 'utf8').trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { name: string; principal: { id: string } });
    expect(records.some((r) => r.name === 'count_assets' && r.principal.id === 'alice')).toBe(true);
  });
});
