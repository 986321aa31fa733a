/** MCP.md 6.2 against a real listening server: every exchange of the walk-through and the check table. */
import { connect } from 'node:net';
import { Principal } from '@cloudg/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { JSON_AND_SSE, send } from './support/http.js';
import { initialize, initialized, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const AUTH = { authorization: 'Bearer s3cret' };

async function start(options: Parameters<typeof serveHttp>[1] = {}) {
  running = await serveHttp(buildLayer(), { port: 0, authTokens: ['s3cret:analyst:alice'], ...options });
  return running.port;
}

/** initialize + notifications/initialized; returns the session id. */
async function openSession(port: number, headers: Record<string, string> = AUTH, version = '2025-11-25') {
  const res = await send(port, { headers: { ...headers, ...JSON_AND_SSE }, body: initialize(1, version) });
  expect(res.status).toBe(200);
  const sid = res.headers['mcp-session-id'] as string;
  const ack = await send(port, { headers: { ...headers, 'mcp-session-id': sid }, body: initialized });
  expect(ack.status).toBe(202);
  return sid;
}

const rpcError = (message: string, code = -32600) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

describe('Streamable HTTP, handshake era', () => {
  it('refuses a request without the token with 401 and WWW-Authenticate', async () => {
    const port = await start();
    const res = await send(port, { headers: JSON_AND_SSE, body: initialize() });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="cloudg-mcp"');
    expect(res.headers.server).toBe('cloudg-mcp');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual(rpcError('Unauthorized'));
  });

  it('initialize answers JSON with a 32-hex Mcp-Session-Id; initialized gets 202 with an empty body', async () => {
    const port = await start();
    const res = await send(port, { headers: { ...AUTH, ...JSON_AND_SSE }, body: initialize() });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(res.json()).toMatchObject({
      id: 1,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
        serverInfo: { name: 'cloudg', version: '0.1.0', title: 'cloudg' },
      },
    });
    const ack = await send(port, {
      headers: { ...AUTH, 'mcp-session-id': res.headers['mcp-session-id'] as string },
      body: initialized,
    });
    expect(ack.status).toBe(202);
    expect(ack.text).toBe('');
  });

  it('streams tools/call as SSE: progress for the request, then the response; the token principal has default added', async () => {
    const port = await start();
    const sid = await openSession(port);
    const headers = { ...AUTH, ...JSON_AND_SSE, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const res = await send(port, {
      headers,
      body: req(3, 'tools/call', {
        name: 'slow',
        arguments: { seconds: 0.05 },
        _meta: { progressToken: 'p1' },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.text).toMatch(/^event: message\ndata: /);
    expect(res.events()).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 0, total: 1, message: 'started' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 1, total: 1, message: 'done' },
      },
      expect.objectContaining({
        id: 3,
        result: expect.objectContaining({ structuredContent: { slept: 0.05 } }),
      }),
    ]);
    const who = await send(port, { headers, body: req(4, 'tools/call', { name: 'whoami' }) });
    expect(who.events()).toEqual([
      expect.objectContaining({
        result: expect.objectContaining({
          structuredContent: { id: 'alice', roles: ['analyst', 'default'] },
        }),
      }),
    ]);
  });

  it('answers JSON when the client accepts only JSON, with --json-response, and for other methods', async () => {
    const port = await start();
    const sid = await openSession(port);
    const call = req(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const onlyJson = await send(port, {
      headers: { ...AUTH, accept: 'application/json', 'mcp-session-id': sid },
      body: call,
    });
    expect(onlyJson.headers['content-type']).toBe('application/json');
    expect(onlyJson.json()).toMatchObject({ id: 3, result: { structuredContent: { text: 'hi' } } });
    const list = await send(port, {
      headers: { ...AUTH, ...JSON_AND_SSE, 'mcp-session-id': sid },
      body: req(4, 'tools/list'),
    });
    expect(list.headers['content-type']).toBe('application/json');
    await running?.close();
    const port2 = await start({ jsonResponse: true });
    const sid2 = await openSession(port2);
    const forced = await send(port2, {
      headers: { ...AUTH, ...JSON_AND_SSE, 'mcp-session-id': sid2 },
      body: call,
    });
    expect(forced.headers['content-type']).toBe('application/json');
  });

  it('Origin: a foreign one gets 403, a same-origin one passes', async () => {
    const port = await start();
    const sid = await openSession(port);
    const headers = { ...AUTH, ...JSON_AND_SSE, 'mcp-session-id': sid };
    const evil = await send(port, {
      headers: { ...headers, origin: 'https://evil.example' },
      body: req(9, 'ping'),
    });
    expect(evil.status).toBe(403);
    expect(evil.json()).toEqual(rpcError('Forbidden: invalid Origin'));
    const same = await send(port, {
      headers: { ...headers, origin: `http://127.0.0.1:${port}` },
      body: req(9, 'ping'),
    });
    expect(same.status).toBe(200);
    expect(same.json()).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
  });

  it('Host: a foreign one gets 421 before anything else, even before the token check', async () => {
    const port = await start();
    const res = await send(port, { headers: { host: `attacker.example:${port}` }, body: initialize() });
    expect(res.status).toBe(421);
    expect(res.json()).toEqual(rpcError('Invalid Host header'));
  });

  it('sessions: 400 without the id, 404 for an unknown one or another principal', async () => {
    const port = await start({ authTokens: ['s3cret:analyst:alice', 'other::bob'] });
    const sid = await openSession(port);
    const missing = await send(port, { headers: AUTH, body: req(2, 'ping') });
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual(rpcError('Bad Request: Mcp-Session-Id header is required'));
    const unknown = await send(port, {
      headers: { ...AUTH, 'mcp-session-id': 'deadbeef' },
      body: req(2, 'ping'),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual(rpcError('Session not found'));
    const stolen = await send(port, {
      headers: { authorization: 'Bearer other', 'mcp-session-id': sid },
      body: req(2, 'ping'),
    });
    expect(stolen.status).toBe(404);
  });

  it('MCP-Protocol-Version: a mismatch with the session or an unsupported value gets 400', async () => {
    const port = await start();
    const sid = await openSession(port);
    const headers = { ...AUTH, 'mcp-session-id': sid };
    const mismatch = await send(port, {
      headers: { ...headers, 'mcp-protocol-version': '2025-06-18' },
      body: req(2, 'ping'),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json()).toMatchObject(
      rpcError('MCP-Protocol-Version 2025-06-18 does not match the negotiated version 2025-11-25'),
    );
    const future = await send(port, {
      headers: { ...headers, 'mcp-protocol-version': '2099-01-01' },
      body: req(2, 'ping'),
    });
    expect(future.status).toBe(400);
    expect(future.json()).toMatchObject(rpcError('Unsupported MCP-Protocol-Version: 2099-01-01'));
  });

  it('Content-Type, Accept, JSON parse and method checks', async () => {
    const port = await start();
    const sid = await openSession(port);
    const headers = { ...AUTH, 'mcp-session-id': sid };
    const text = await send(port, {
      headers: { ...headers, 'content-type': 'text/plain' },
      body: req(2, 'ping'),
    });
    expect(text.status).toBe(415);
    expect(text.json()).toEqual(rpcError('Content-Type must be application/json'));
    const getJson = await send(port, { method: 'GET', headers: { ...headers, accept: 'application/json' } });
    expect(getJson.status).toBe(406);
    expect(getJson.json()).toEqual(rpcError('Not Acceptable: GET requires Accept: text/event-stream'));
    const postHtml = await send(port, { headers: { ...headers, accept: 'text/html' }, body: req(2, 'ping') });
    expect(postHtml.status).toBe(406);
    const garbage = await send(port, { headers, body: '{"jsonrpc": "2.0", "id": 1,' });
    expect(garbage.status).toBe(400);
    expect(garbage.json()).toEqual(rpcError('Parse error', -32700));
    const put = await send(port, { method: 'PUT', headers, body: req(2, 'ping') });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
    const elsewhere = await send(port, { path: '/other', headers, body: req(2, 'ping') });
    expect(elsewhere.status).toBe(404);
  });

  it('a batch on a 2025-11-25 session is refused in the body (200); 2025-03-26 sessions may batch', async () => {
    const port = await start();
    const sid = await openSession(port);
    const res = await send(port, {
      headers: { ...AUTH, 'mcp-session-id': sid },
      body: [req(2, 'ping'), req(3, 'ping')],
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(rpcError('JSON-RPC batches are not supported by protocol version 2025-11-25'));
    const old = await openSession(port, AUTH, '2025-03-26');
    const ok = await send(port, {
      headers: { ...AUTH, 'mcp-session-id': old },
      body: [req(2, 'ping'), req(3, 'ping')],
    });
    expect(ok.json()).toEqual([
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
  });

  it('DELETE ends the session; a later request with its id gets 404', async () => {
    const port = await start();
    const sid = await openSession(port);
    const del = await send(port, { method: 'DELETE', headers: { ...AUTH, 'mcp-session-id': sid } });
    expect(del.status).toBe(200);
    const after = await send(port, { headers: { ...AUTH, 'mcp-session-id': sid }, body: req(9, 'ping') });
    expect(after.status).toBe(404);
    expect(after.json()).toEqual(rpcError('Session not found'));
  });

  it('the GET stream carries change notifications; a second GET on the session gets 409', async () => {
    const port = await start();
    const sid = await openSession(port);
    const headers = { ...AUTH, 'mcp-session-id': sid };
    await send(port, { headers, body: req(2, 'resources/subscribe', { uri: 'test://status' }) });
    let second: Awaited<ReturnType<typeof send>> | undefined;
    const stream = await send(port, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
      frames: 2,
      onOpen: () => {
        void (async () => {
          second = await send(port, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } });
          await send(port, {
            headers,
            body: req(3, 'tools/call', { name: 'touch', arguments: { kind: 'tools' } }),
          });
          await send(port, {
            headers,
            body: req(4, 'tools/call', {
              name: 'touch',
              arguments: { kind: 'resource', uri: 'test://status' },
            }),
          });
        })();
      },
    });
    expect(stream.headers['content-type']).toBe('text/event-stream');
    expect(stream.events()).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://status' } },
    ]);
    expect(second?.status).toBe(409);
  });

  it('/healthz answers without authentication; OPTIONS is 405 without CORS', async () => {
    const port = await start();
    const health = await send(port, { method: 'GET', path: '/healthz' });
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const options = await send(port, { method: 'OPTIONS' });
    expect(options.status).toBe(405);
  });

  it('CORS for configured origins: preflight 204 and Access-Control headers on answers', async () => {
    const port = await start({ corsOrigins: ['https://app.example'] });
    const pre = await send(port, { method: 'OPTIONS', headers: { origin: 'https://app.example' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(pre.headers['access-control-allow-headers']).toContain('Mcp-Session-Id');
    const res = await send(port, { headers: { ...AUTH, origin: 'https://app.example' }, body: initialize() });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(res.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
  });

  it('size limits: 413 above the body cap, 431 above the header cap', async () => {
    const port = await start({ maxBodyBytes: 1024, maxHeaderBytes: 2048 });
    const big = await send(port, { headers: AUTH, body: req(1, 'ping', { pad: 'x'.repeat(2000) }) });
    expect(big.status).toBe(413);
    const headers = await send(port, {
      headers: { ...AUTH, 'x-pad': 'y'.repeat(4096) },
      body: req(1, 'ping'),
    });
    expect(headers.status).toBe(431);
  });

  it('size limits apply to Content-Length bodies too; a malformed request line gets 400', async () => {
    const port = await start({ maxBodyBytes: 1024 });
    const body = JSON.stringify(req(1, 'ping', { pad: 'x'.repeat(2000) }));
    const declared = await send(port, {
      headers: { ...AUTH, 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(declared.status).toBe(413);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('NOT A REQUEST LINE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('optional auth lets requests without a token through as anonymous', async () => {
    const port = await start({ authRequired: false });
    const sid = await openSession(port, {});
    const who = await send(port, {
      headers: { accept: 'application/json', 'mcp-session-id': sid },
      body: req(2, 'tools/call', { name: 'whoami' }),
    });
    expect(who.json()).toMatchObject({
      result: { structuredContent: { id: 'anonymous', roles: ['default'] } },
    });
  });

  it('a principal resolver sees the request and the token principal; returning nothing falls back', async () => {
    const port = await start({
      principalResolver: (info) => {
        const user = info.header('x-authenticated-user');
        if (!user) return undefined;
        return new Principal({ id: user, roles: ['gateway', ...(info.principal?.roles ?? [])] });
      },
    });
    const call = async (headers: Record<string, string>) => {
      const sid = await openSession(port, headers);
      const res = await send(port, {
        headers: { ...headers, accept: 'application/json', 'mcp-session-id': sid },
        body: req(2, 'tools/call', { name: 'whoami' }),
      });
      return (res.json() as { result: { structuredContent: unknown } }).result.structuredContent;
    };
    expect(await call({ ...AUTH, 'x-authenticated-user': 'carol' })).toEqual({
      id: 'carol',
      roles: ['analyst', 'default', 'gateway'],
    });
    expect(await call(AUTH)).toEqual({ id: 'alice', roles: ['analyst', 'default'] });
  });

  it('caps live sessions with 503 and expires idle ones', async () => {
    // The reaper runs on an interval of a second or more. With that interval and the clock faked,
    // the test moves time past the idle timeout and runs the reaper instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const port = await start({
        maxSessions: 1,
        sessionIdleTimeoutMs: 50,
        authTokens: ['s3cret:analyst:alice', 'other::bob'],
      });
      const sid = await openSession(port);
      // Bob holds no session, so his own quota is not the reason: the server as a whole is full.
      const refused = await send(port, { headers: { authorization: 'Bearer other' }, body: initialize() });
      expect(refused.status).toBe(503);
      vi.advanceTimersByTime(1000);
      const gone = await send(port, { headers: { ...AUTH, 'mcp-session-id': sid }, body: req(2, 'ping') });
      expect(gone.status).toBe(404);
      expect((await send(port, { headers: AUTH, body: initialize() })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('stateless mode', () => {
  it('answers initialize without a session and serves every request in a throwaway session', async () => {
    const port = await start({ stateless: true });
    const init = await send(port, { headers: AUTH, body: initialize() });
    expect(init.status).toBe(200);
    expect(init.headers['mcp-session-id']).toBeUndefined();
    const list = await send(port, {
      headers: { ...AUTH, 'mcp-protocol-version': '2025-11-25' },
      body: req(2, 'tools/list'),
    });
    expect(list.json()).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    // Without the header the request runs at 2025-03-26, which allows batches.
    const batch = await send(port, { headers: AUTH, body: [req(3, 'ping'), req(4, 'ping')] });
    expect(batch.json()).toHaveLength(2);
    expect(
      (await send(port, { method: 'GET', headers: { ...AUTH, accept: 'text/event-stream' } })).status,
    ).toBe(405);
    expect((await send(port, { method: 'DELETE', headers: AUTH })).status).toBe(405);
  });
});

describe('deprecated HTTP+SSE transport', () => {
  it('GET /sse announces the message endpoint; POSTed messages are answered on the stream', async () => {
    const port = await start({ transport: 'sse' });
    const posted: Array<Promise<number>> = [];
    const stream = await send(port, {
      method: 'GET',
      path: '/sse',
      headers: { ...AUTH, accept: 'text/event-stream' },
      frames: 3,
      onData: (text) => {
        const endpoint = /data: (\/messages\/\?session_id=[0-9a-f]{32})/.exec(text)?.[1];
        if (!endpoint || posted.length > 0) return;
        posted.push(
          (async () => {
            const a = await send(port, { path: endpoint, headers: AUTH, body: initialize() });
            const b = await send(port, { path: endpoint, headers: AUTH, body: req(2, 'tools/list') });
            return a.status * 1000 + b.status;
          })(),
        );
      },
    });
    expect(stream.text).toMatch(/^event: endpoint\ndata: \/messages\/\?session_id=[0-9a-f]{32}\n\n/);
    expect(await posted[0]).toBe(202202);
    expect(stream.events()).toMatchObject([
      { id: 1, result: { protocolVersion: '2025-11-25' } },
      { id: 2, result: { tools: expect.any(Array) } },
    ]);
    const unknown = await send(port, {
      path: '/messages/?session_id=feed',
      headers: AUTH,
      body: req(3, 'ping'),
    });
    expect(unknown.status).toBe(404);
  });
});
