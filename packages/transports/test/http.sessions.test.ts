/**
 * Handshake-era sessions against a real server: bound to the principal id and roles that opened
 * them, served as the credential that sends each request, and capped per principal.
 */
import { Principal } from '@cloudg/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp, TokenAuth } from '../src/index.js';
import { JSON_AND_SSE, send } from './support/http.js';
import { initialize, initialized, req } from './support/rpc.js';
import { buildLayer, buildRegistry } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Parameters<typeof serveHttp>[1] = {}) {
  running = await serveHttp(buildLayer(), { port: 0, ...options });
  return running.port;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** initialize + notifications/initialized as this token; the session id. */
async function openSession(port: number, token: string): Promise<string> {
  const res = await send(port, { headers: { ...bearer(token), ...JSON_AND_SSE }, body: initialize() });
  expect(res.status).toBe(200);
  const sid = res.headers['mcp-session-id'] as string;
  const ack = await send(port, { headers: { ...bearer(token), 'mcp-session-id': sid }, body: initialized });
  expect(ack.status).toBe(202);
  return sid;
}

/** `whoami` on a session as this token (JSON answer). */
function whoami(port: number, token: string, sid: string, id = 2) {
  return send(port, {
    headers: { ...bearer(token), accept: 'application/json', 'mcp-session-id': sid },
    body: req(id, 'tools/call', { name: 'whoami', arguments: {} }),
  });
}

describe('session binding', () => {
  it('a token with the same principal id but fewer roles cannot continue the session (404)', async () => {
    const port = await start({ authTokens: ['admintok:admin:alice', 'plaintok::alice'] });
    const sid = await openSession(port, 'admintok');
    const borrowed = await whoami(port, 'plaintok', sid);
    expect(borrowed.status).toBe(404);
    expect(borrowed.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Session not found' },
    });
    // The same refusal for GET and DELETE: the session is neither streamed nor ended by that caller.
    const get = await send(port, {
      method: 'GET',
      headers: { ...bearer('plaintok'), accept: 'text/event-stream', 'mcp-session-id': sid },
    });
    expect(get.status).toBe(404);
    const del = await send(port, {
      method: 'DELETE',
      headers: { ...bearer('plaintok'), 'mcp-session-id': sid },
    });
    expect(del.status).toBe(404);
    // The session is intact for the credential that opened it.
    const own = await whoami(port, 'admintok', sid);
    expect(own.status).toBe(200);
    expect(own.json()).toMatchObject({
      result: { structuredContent: { id: 'alice', roles: ['admin', 'default'] } },
    });
  });

  it('a token with more roles cannot continue it either: the roles must be the same', async () => {
    const port = await start({ authTokens: ['admintok:admin:alice', 'plaintok::alice'] });
    const sid = await openSession(port, 'plaintok');
    expect((await whoami(port, 'admintok', sid)).status).toBe(404);
  });

  it('another token with the same id and roles continues the session, and each request runs as its sender', async () => {
    const registry = buildRegistry();
    registry.tool({
      name: 'device',
      description: 'The device attribute of the caller.',
      handler: (ctx) => ({ device: ctx.principal.attributes.device }),
    });
    const alice = (device: string) =>
      new Principal({ id: 'alice', roles: ['analyst'], attributes: { device } });
    const auth = new TokenAuth({ laptop: alice('laptop'), desktop: alice('desktop') });
    running = await serveHttp(buildLayer({ registry }), { port: 0, auth });
    const sid = await openSession(running.port, 'laptop');
    const res = await send(running.port, {
      headers: { ...bearer('desktop'), accept: 'application/json', 'mcp-session-id': sid },
      body: req(2, 'tools/call', { name: 'device', arguments: {} }),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ result: { structuredContent: { device: 'desktop' } } });
  });
});

describe('per-principal session quota', () => {
  it('a principal over its quota is refused with 429 while another can still open sessions', async () => {
    const port = await start({
      authTokens: ['atok::alice', 'btok::bob'],
      maxSessions: 10,
      maxSessionsPerPrincipal: 2,
    });
    // Alice's two sessions each hold an open GET stream, so neither is idle enough to end.
    const streams: Array<Promise<unknown>> = [];
    const opened: Array<Promise<void>> = [];
    for (let i = 0; i < 2; i++) {
      const sid = await openSession(port, 'atok');
      let ready!: () => void;
      opened.push(new Promise<void>((resolve) => (ready = resolve)));
      streams.push(
        send(port, {
          method: 'GET',
          headers: { ...bearer('atok'), accept: 'text/event-stream', 'mcp-session-id': sid },
          frames: 1,
          onOpen: () => ready(),
        }),
      );
    }
    await Promise.all(opened);
    const refused = await send(port, { headers: { ...bearer('atok'), ...JSON_AND_SSE }, body: initialize() });
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -31029,
        message:
          'Too many sessions for this principal: the limit is 2 (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE',
        data: { limit: 2, option: 'maxSessionsPerPrincipal' },
      },
    });
    // Bob is not affected by Alice's sessions.
    await openSession(port, 'btok');
    await openSession(port, 'btok');
    await running?.close();
    running = undefined;
    await Promise.all(streams);
  });

  it("at the quota a principal's least recently used idle session is ended to make room", async () => {
    const port = await start({ authTokens: ['atok::alice'], maxSessionsPerPrincipal: 2 });
    const first = await openSession(port, 'atok');
    const second = await openSession(port, 'atok');
    // The first is used again, so the second is now the least recently used.
    expect((await whoami(port, 'atok', first)).status).toBe(200);
    const third = await openSession(port, 'atok');
    expect((await whoami(port, 'atok', second)).status).toBe(404);
    expect((await whoami(port, 'atok', first)).status).toBe(200);
    expect((await whoami(port, 'atok', third)).status).toBe(200);
  });

  it('defaults to a tenth of maxSessions', async () => {
    await start({ maxSessions: 50 });
    expect(running?.server.options.maxSessionsPerPrincipal).toBe(5);
  });
});
