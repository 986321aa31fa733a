/**
 * 2025-era sessions shared by three replicas (real HTTP servers) through one real redis-server:
 * a session opened on A continues on B and C, its standalone stream held on A carries what B
 * and C send it, questions asked on B are answered through C, DELETE on B ends it on A, and the
 * stream resumes on another replica with Last-Event-ID.
 */
import { describe, expect, it } from 'vitest';
import { call, Stream } from './support/http-client.js';
import { type HttpReplica, startReplicas } from './support/http-replicas.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let prefixes = 0;

async function three(): Promise<[HttpReplica, HttpReplica, HttpReplica]> {
  prefixes += 1;
  env.replicas = await startReplicas(env.redis.url, ['A', 'B', 'C'], `sessions${prefixes}:`);
  return env.replicas as [HttpReplica, HttpReplica, HttpReplica];
}

const VERSION = '2025-11-25';

async function initialize(replica: HttpReplica, capabilities: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(replica.port, {
    headers: { authorization: 'Bearer atok' },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities, clientInfo: { name: 'test', version: '1' } },
    },
  });
  expect(answer.status).toBe(200);
  return String(answer.headers['mcp-session-id']);
}

function on(session: string): Record<string, string> {
  return { authorization: 'Bearer atok', 'mcp-session-id': session, 'mcp-protocol-version': VERSION };
}

function rpc(replica: HttpReplica, session: string, message: Record<string, unknown>) {
  return call(replica.port, { headers: on(session), body: { jsonrpc: '2.0', ...message } });
}

const methods = (stream: Stream) => stream.messages.map((m) => m.method);

describe('a 2025-era session across three replicas', () => {
  it('opened on A, initialized on B, listed on C; its stream on A carries what B and C send', async () => {
    const [a, b, c] = await three();
    const session = await initialize(a);
    expect((await rpc(b, session, { method: 'notifications/initialized' })).status).toBe(202);
    const tools = await rpc(c, session, { id: 2, method: 'tools/list' });
    expect(tools.status).toBe(200);
    expect((tools.body as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual(
      ['work', 'confirm'],
    );

    const stream = await Stream.open(a.port, on(session));
    expect(stream.status).toBe(200);
    // Subscribed through B, changed on B: the update reaches the stream A holds.
    expect(
      (await rpc(b, session, { id: 3, method: 'resources/subscribe', params: { uri: 'memo://status' } }))
        .status,
    ).toBe(200);
    b.layer.notifyChange('resource', 'memo://status');
    // A JSON-mode call on C: its progress goes to the session's stream, on A.
    const work = await rpc(c, session, {
      id: 4,
      method: 'tools/call',
      params: { name: 'work', arguments: {}, _meta: { progressToken: 'p1' } },
    });
    expect((work.body as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
      done: true,
    });
    await stream.until((f) => f.length >= 2);
    // The change (announced by B, off the request path) and C's progress come from two replicas,
    // so either may reach the stream first: the log orders them as they arrive, not as sent.
    expect(stream.messages).toHaveLength(2);
    expect(stream.messages).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'memo://status' } },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'p1', progress: 1, total: 2, message: 'started' },
        },
      ]),
    );
    expect(stream.frames.every((f) => /^\d+-\d+$/.test(f.id ?? ''))).toBe(true);
    expect(c.calls).toBe(1);
    // One stream per session, whichever replica is asked.
    const second = await Stream.open(c.port, on(session));
    expect(second.status).toBe(409);
    expect((await Stream.open(a.port, on(session))).status).toBe(409);
    stream.close();
  });

  it('a question asked by a call on B goes out on the stream A holds; the answer posted to C reaches B', async () => {
    const [a, b, c] = await three();
    const session = await initialize(a, { elicitation: {} });
    await rpc(a, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(a.port, on(session));
    const pending = rpc(b, session, {
      id: 7,
      method: 'tools/call',
      params: { name: 'confirm', arguments: {} },
    });
    const [question] = (await stream.until((f) => f.length >= 1)).map(
      (f) => f.data as Record<string, unknown>,
    );
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Go ahead?' } });
    // The asking replica, then a part unique to its view of the session, then a counter.
    expect(String(question?.id)).toMatch(
      new RegExp(`^cloudg-${b.state.sessions.replica}-[0-9a-f]{12}-\\d+$`),
    );
    const answered = await call(c.port, {
      headers: on(session),
      body: { jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: { confirm: true } } },
    });
    expect(answered.status).toBe(202);
    const result = await pending;
    expect((result.body as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
      confirmed: true,
    });
    stream.close();
  });

  it('a cancellation posted to C stops the call running on B', async () => {
    const [a, b, c] = await three();
    const session = await initialize(a);
    await rpc(a, session, { method: 'notifications/initialized' });
    const start = Date.now();
    const running = rpc(b, session, {
      id: 11,
      method: 'tools/call',
      params: { name: 'work', arguments: { ms: 4000 } },
    });
    while (b.calls === 0 && Date.now() - start < 2000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const cancel = await rpc(c, session, { method: 'notifications/cancelled', params: { requestId: 11 } });
    expect(cancel.status).toBe(202);
    // A cancelled request gets no response: its POST ends with 202 and an empty body, long before 4 s.
    const answer = await running;
    expect(answer.status).toBe(202);
    expect(Date.now() - start).toBeLessThan(3000);
  });

  it('DELETE on B ends the session on A (its stream closes) and on C', async () => {
    const [a, b, c] = await three();
    const session = await initialize(a);
    const stream = await Stream.open(a.port, on(session));
    expect((await call(b.port, { method: 'DELETE', headers: on(session) })).status).toBe(200);
    await stream.until(() => false, 2000);
    expect(stream.ended).toBe(true);
    for (const replica of [a, b, c]) {
      const ping = await rpc(replica, session, { id: 9, method: 'ping' });
      expect(ping.status).toBe(404);
      expect(ping.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Session not found' },
      });
    }
  });

  it('another principal presenting the id gets 404 on every replica', async () => {
    const [a, b] = await three();
    const session = await initialize(a);
    const stolen = await call(b.port, {
      headers: { ...on(session), authorization: 'Bearer btok' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(stolen.status).toBe(404);
  });

  it('a broken stream resumes on another replica: after Last-Event-ID, or from what no stream was handed', async () => {
    const [a, b, c] = await three();
    const session = await initialize(a);
    await rpc(a, session, { method: 'notifications/initialized' });
    const first = await Stream.open(a.port, on(session));
    a.layer.notifyChange('tools');
    await first.until((f) => f.length >= 1);
    const seen = first.frames[0]?.id as string;
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Changed while no stream is open: kept in the session's log.
    c.layer.notifyChange('prompts');
    c.layer.notifyChange('resources');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const resumed = await Stream.open(b.port, { ...on(session), 'last-event-id': seen });
    await resumed.until((f) => f.length >= 2);
    expect(methods(resumed)).toEqual([
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    resumed.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    a.layer.notifyChange('tools');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Without Last-Event-ID: only what no stream was handed.
    const fresh = await Stream.open(c.port, on(session));
    await fresh.until((f) => f.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(methods(fresh)).toEqual(['notifications/tools/list_changed']);
    fresh.close();
  });
});
