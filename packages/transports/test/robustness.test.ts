/**
 * "Bad input gets a clear error and loses nothing; the server never crashes on a request."
 * Hostile input against real listening servers (HTTP in a child process, stdio in a child
 * process): after each case the documented answer (MCP.md 6.1, 6.2, 6.4, 13), then proof that
 * the same server still serves a normal request and that its process is still up.
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StdioChild } from './support/child.js';
import { parseEvents } from './support/http.js';
import { HttpChild } from './support/http-child.js';
import { rawBody, rawExchange } from './support/raw-socket.js';
import { ENVELOPE, initialize, initialized, modern, req } from './support/rpc.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** POST raw bytes (a string or a Buffer, sent as is). */
function post(
  port: number,
  body: string | Buffer,
  headers: Record<string, string>,
  path = '/mcp',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    r.on('error', reject);
    r.end(body);
  });
}

const json = (reply: Reply) => JSON.parse(reply.text) as unknown;

/**
 * A `slow` tool call on the 2025-11-25 session, streamed: `started` resolves once the tool has
 * reported its first progress (so it is running and cancellable), `done` with the whole answer.
 */
function slowCall(id: string, seconds: number): { started: Promise<void>; done: Promise<Reply> } {
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const body = JSON.stringify(
    req(id, 'tools/call', { name: 'slow', arguments: { seconds }, _meta: { progressToken: id } }),
  );
  const done = new Promise<Reply>((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: { ...current, accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('notifications/progress')) started();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
  return { started: startedPromise, done };
}

let server: HttpChild;
let port: number;
/** Sessions at 2025-11-25 (no batches) and 2025-03-26 (batches). */
let current: Record<string, string>;
let batching: Record<string, string>;

const BASE = {
  host: '127.0.0.1',
  authorization: 'Bearer s3cret',
  'content-type': 'application/json',
  accept: 'application/json',
};
const MODERN = { ...BASE, 'mcp-protocol-version': '2026-07-28' };

async function openSession(version: string): Promise<Record<string, string>> {
  const init = await post(port, JSON.stringify(initialize(1, version)), BASE);
  expect(init.status).toBe(200);
  const headers = { ...BASE, 'mcp-session-id': String(init.headers['mcp-session-id']) };
  expect((await post(port, JSON.stringify(initialized), headers)).status).toBe(202);
  return headers;
}

/** The server answers a normal request on each era, and its process is still running. */
async function expectAlive(): Promise<void> {
  expect(server.alive).toBe(true);
  const ping = await post(port, JSON.stringify(req('alive', 'ping')), current);
  expect(ping.status).toBe(200);
  expect(json(ping)).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
  const echo = await post(
    port,
    JSON.stringify(modern('alive', 'tools/call', { name: 'echo', arguments: { text: 'still here' } })),
    { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
  );
  expect(echo.status).toBe(200);
  expect(json(echo)).toMatchObject({ id: 'alive', result: { structuredContent: { text: 'still here' } } });
}

beforeAll(async () => {
  server = new HttpChild();
  port = await server.port;
  current = await openSession('2025-11-25');
  batching = await openSession('2025-03-26');
});

afterEach(async () => {
  await expectAlive();
});

afterAll(async () => {
  const alive = server.alive;
  const errors = server.errorLogs();
  await server.stop();
  expect(alive).toBe(true);
  // Hostile input is the client's error: nothing may reach the server's "request failed" path.
  expect(errors).toEqual([]);
});

const bad = (code: number, message?: string, id: string | number | null = null) => ({
  jsonrpc: '2.0',
  id,
  error: message === undefined ? { code } : { code, message },
});
const INVALID = bad(-32600, 'Invalid Request');
/** A tool result for arguments the tool's schema refuses (MCP.md 13.1): the model can read and fix it. */
const INVALID_ARGUMENTS = { isError: true, _meta: { 'cloudg/error_code': -32602 } };

describe('malformed HTTP on a raw socket gets a clean 400 or 431 and a closed connection', () => {
  const host = () => `Host: 127.0.0.1:${port}\r\nAuthorization: Bearer s3cret\r\n`;
  const postHead = (extra: string) =>
    `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: application/json\r\n${extra}`;

  const MALFORMED: Array<[name: string, bytes: () => string, status: number]> = [
    ['a garbage request line', () => 'GARBAGE\r\n\r\n', 400],
    // Node reads a line without a version as HTTP/0.9, which has no Host: refused as any such request.
    ['a request line without a version', () => 'POST /mcp\r\n\r\n', 421],
    ['binary noise', () => '\u0000\u0001\u0002\u00ff\r\n\r\n', 400],
    ['a header without a colon', () => `GET /healthz HTTP/1.1\r\n${host()}no colon here\r\n\r\n`, 400],
    ['a NUL byte in a header value', () => `GET /healthz HTTP/1.1\r\n${host()}X-Bad: a\u0000b\r\n\r\n`, 400],
    [
      'headers above 64 KiB',
      () => `GET /healthz HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      431,
    ],
    [
      'Content-Length and Transfer-Encoding together',
      () => postHead('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
      400,
    ],
    ['a Content-Length that is not a number', () => postHead('Content-Length: ten\r\n\r\n'), 400],
    [
      'a chunk size that is not hex',
      () => postHead('Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n'),
      400,
    ],
    [
      'a chunk longer than its size',
      () => postHead('Transfer-Encoding: chunked\r\n\r\n2\r\n{"jsonrpc":"2.0"}\r\n0\r\n\r\n'),
      400,
    ],
  ];

  it.each(MALFORMED)('%s', async (_name, bytes, status) => {
    const reply = await rawExchange(port, [bytes()]);
    expect(reply.status).toBe(status);
    expect(reply.closed).toBe(true);
    expect(rawBody(reply.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('a Content-Length that promises more than is sent: no answer until the client gives up', async () => {
    const body = JSON.stringify(req(1, 'ping'));
    const reply = await rawExchange(
      port,
      [
        postHead(
          `Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: ${body.length + 50}\r\n\r\n`,
        ),
        body,
      ],
      {
        waitMs: 500,
        // While this request waits for the rest of its body, other requests are served.
        drive: async () => {
          const meanwhile = await post(port, JSON.stringify(req('meanwhile', 'ping')), current);
          expect(json(meanwhile)).toEqual({ jsonrpc: '2.0', id: 'meanwhile', result: {} });
        },
      },
    );
    // The server waits for the rest of the body until the client gives up.
    expect(reply.status).toBe(0);
    expect(reply.closed).toBe(false);
  });

  it('a Content-Length that promises more, then end of input: 400 Bad Request and a closed connection', async () => {
    const body = JSON.stringify(req(1, 'ping'));
    const reply = await rawExchange(
      port,
      [
        postHead(
          `Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: ${body.length + 50}\r\n\r\n`,
        ),
        body,
      ],
      { end: true },
    );
    expect(reply.status).toBe(400);
    expect(rawBody(reply.text)).toEqual(bad(-32600, 'Bad Request'));
    expect(reply.closed).toBe(true);
  });

  it('a Content-Length shorter than the body: the bytes after it are a bad request on the connection', async () => {
    const body = JSON.stringify(req(1, 'ping'));
    const reply = await rawExchange(
      port,
      [postHead(`Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: 10\r\n\r\n`), body],
      { end: true },
    );
    expect(reply.status).toBe(400);
    expect(reply.closed).toBe(true);
  });

  it('garbage pipelined behind a streaming answer never lands inside that answer', async () => {
    const call = JSON.stringify(req(1, 'tools/call', { name: 'slow', arguments: { seconds: 0.3 } }));
    const reply = await rawExchange(
      port,
      [
        `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
          `Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: ${call.length}\r\n\r\n${call}`,
      ],
      {
        drive: (socket) => {
          socket.once('data', () => socket.write('GARBAGE\r\n\r\n'));
        },
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.text.match(/HTTP\/1\.1/g)).toHaveLength(1);
    expect(reply.closed).toBe(true);
  });

  // The connection drops once the partial request has left this process: the server reads the
  // head and part of the body, then the end of the connection, in that order.
  const dropWhenSent = (socket: import('node:net').Socket) => {
    socket.write('', () => socket.destroy());
  };

  it('a client that disconnects mid-body', async () => {
    await rawExchange(port, [postHead('Content-Length: 100000\r\n\r\n'), '{"jsonrpc":"2.0",'], {
      drive: dropWhenSent,
    });
  });

  it('a client that disconnects mid-chunked-body', async () => {
    await rawExchange(port, [postHead('Transfer-Encoding: chunked\r\n\r\n5\r\n{"jso')], {
      drive: dropWhenSent,
    });
  });

  it('a client that disconnects mid-SSE-response (handshake era and 2026)', async () => {
    const call = (id: number) => ({
      ...req(id, 'tools/call', { name: 'slow', arguments: { seconds: 2 }, _meta: { progressToken: 'p' } }),
    });
    const legacy = JSON.stringify(call(1));
    const dropAfterFirstFrame = (socket: import('node:net').Socket) => {
      socket.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('event: message')) socket.destroy();
      });
    };
    const one = await rawExchange(
      port,
      [
        `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
          `Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: ${legacy.length}\r\n\r\n${legacy}`,
      ],
      { drive: dropAfterFirstFrame, waitMs: 5000 },
    );
    expect(one.status).toBe(200);
    expect(one.text).toContain('notifications/progress');
    const fresh = modern(2, 'tools/call', {
      name: 'slow',
      arguments: { seconds: 2 },
    });
    (fresh.params._meta as Record<string, unknown>).progressToken = 'p';
    const body = JSON.stringify(fresh);
    const two = await rawExchange(
      port,
      [
        `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
          'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: slow\r\n' +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      ],
      { drive: dropAfterFirstFrame, waitMs: 5000 },
    );
    expect(two.status).toBe(200);
    expect(two.text).toContain('notifications/progress');
  });

  it('a client that disconnects from an open listen stream', async () => {
    const body = JSON.stringify(
      modern('l', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    const reply = await rawExchange(
      port,
      [
        `POST /mcp HTTP/1.1\r\n${host()}Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
          'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n' +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      ],
      {
        drive: (socket) => {
          socket.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('acknowledged')) socket.destroy();
          });
        },
      },
    );
    expect(reply.text).toContain('notifications/subscriptions/acknowledged');
  });

  it('two pipelined requests on one connection are both answered', async () => {
    const body = JSON.stringify(req(1, 'ping'));
    const one = `${postHead(`Mcp-Session-Id: ${current['mcp-session-id']}\r\nContent-Length: ${body.length}\r\n\r\n`)}${body}`;
    const reply = await rawExchange(port, [one + one.replace('"id":1', '"id":2')], { end: true });
    expect(reply.text.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(reply.text).toContain('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(reply.text).toContain('{"jsonrpc":"2.0","id":2,"result":{}}');
  });
});

/** One POST and its documented answer: the status and the body (`toMatchObject`), or no body (202). */
interface BodyCase {
  name: string;
  body: () => string | Buffer;
  status: number;
  answer?: unknown;
  /** Which session or header set the POST uses. Default the 2025-11-25 session. */
  on?: () => Record<string, string>;
}

const nested = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);
/** The text with its `@` replaced by raw bytes. */
const withBytes = (text: string, bytes: number[]) => {
  const [head = '', tail = ''] = text.split('@');
  return Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
};
const ping = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const echo = (args: string) =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":${args}}}`;

const JSON_CASES: BodyCase[] = [
  { name: 'an empty body', body: () => '', status: 400, answer: bad(-32700, 'Parse error') },
  { name: 'only whitespace', body: () => ' \r\n\t ', status: 400, answer: bad(-32700, 'Parse error') },
  { name: 'truncated JSON', body: () => '{"jsonrpc":"2.0","id":1,', status: 400, answer: bad(-32700) },
  {
    name: 'a trailing comma',
    body: () => '{"jsonrpc":"2.0","id":1,"method":"ping",}',
    status: 400,
    answer: bad(-32700),
  },
  { name: 'two JSON values', body: () => `${ping(1)}${ping(2)}`, status: 400, answer: bad(-32700) },
  { name: 'a byte-order mark', body: () => `\ufeff${ping(1)}`, status: 400, answer: bad(-32700) },
  { name: 'a JSON string as the whole body', body: () => '"ping"', status: 200, answer: INVALID },
  { name: 'a JSON number as the whole body', body: () => '42', status: 200, answer: INVALID },
  { name: 'JSON null as the whole body', body: () => 'null', status: 200, answer: INVALID },
  { name: 'JSON true as the whole body', body: () => 'true', status: 200, answer: INVALID },
  {
    name: 'arrays nested 100k deep (a batch, refused at 2025-11-25)',
    body: () => nested(100_000, '[', ']'),
    status: 200,
    answer: bad(-32600, 'JSON-RPC batches are not supported by protocol version 2025-11-25'),
  },
  {
    name: 'objects nested 100k deep in params',
    body: () => `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":${nested(100_000, '{"a":', '}')}}}`,
    status: 200,
    answer: { jsonrpc: '2.0', id: 3, result: {} },
  },
  {
    name: 'objects nested 100k deep in tool arguments',
    body: () => echo(`{"text":"hi","deep":${nested(100_000, '{"a":', '}')}}`),
    status: 200,
    answer: { id: 7, result: INVALID_ARGUMENTS },
  },
  {
    name: 'invalid UTF-8 bytes inside a string',
    body: () => withBytes(echo('{"text":"a@b"}'), [0xc3, 0x28, 0xff]),
    status: 400,
    answer: bad(-32700, 'Parse error'),
  },
  {
    name: 'an overlong UTF-8 encoding',
    body: () => withBytes(echo('{"text":"a@b"}'), [0xc0, 0xaf]),
    status: 400,
    answer: bad(-32700, 'Parse error'),
  },
  {
    name: 'a lone surrogate escape (valid JSON) comes back as sent',
    body: () => echo('{"text":"a\\ud800b"}'),
    status: 200,
    answer: { id: 7, result: { structuredContent: { text: 'a\ud800b' } } },
  },
  {
    name: '__proto__ as the whole message is not taken as the message',
    body: () => `{"__proto__":${ping(1)}}`,
    status: 200,
    answer: INVALID,
  },
  {
    name: '__proto__ in params does not supply a tool name',
    body: () => '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"__proto__":{"name":"echo"}}}',
    status: 200,
    answer: bad(-32602, 'name must be a string', 4),
  },
  {
    name: '__proto__ in tool arguments is an unknown argument',
    body: () => echo('{"text":"hi","__proto__":{"text":"polluted","isAdmin":true}}'),
    status: 200,
    answer: { id: 7, result: INVALID_ARGUMENTS },
  },
  {
    name: 'constructor and prototype keys in tool arguments',
    body: () => echo('{"text":"hi","constructor":{"prototype":{"x":1}}}'),
    status: 200,
    answer: { id: 7, result: INVALID_ARGUMENTS },
  },
  {
    name: 'an id of 1e400 (Infinity)',
    body: () => '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    status: 200,
    answer: INVALID,
  },
  {
    name: 'a tool argument of 1e400 fails validation instead of sleeping forever',
    body: () =>
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":1e400}}}',
    status: 200,
    answer: { id: 8, result: INVALID_ARGUMENTS },
  },
  {
    name: 'an empty batch',
    body: () => '[]',
    on: () => batching,
    status: 200,
    answer: bad(-32600, 'Invalid Request: empty batch'),
  },
  {
    name: 'a batch of non-objects: one Invalid Request each',
    body: () => '[1,"ping",null,[],true]',
    on: () => batching,
    status: 200,
    answer: [INVALID, INVALID, INVALID, INVALID, INVALID],
  },
  {
    name: 'a batch mixing a good request with bad ones',
    body: () => `[${ping(1)},{"jsonrpc":"2.0","id":{},"method":"ping"},5]`,
    on: () => batching,
    status: 200,
    answer: [{ jsonrpc: '2.0', id: 1, result: {} }, INVALID, INVALID],
  },
  {
    name: 'a batch of arrays nested 100k deep',
    body: () => `[${nested(100_000, '[', ']')}]`,
    on: () => batching,
    status: 200,
    answer: [INVALID],
  },
];

const RPC_CASES: BodyCase[] = [
  { name: 'an id that is an object', body: () => ping({ a: 1 }), status: 200, answer: INVALID },
  { name: 'an id that is an array', body: () => ping([1]), status: 200, answer: INVALID },
  { name: 'an id that is a boolean', body: () => ping(true), status: 200, answer: INVALID },
  { name: 'an id that is a float', body: () => ping(1.5), status: 200, answer: INVALID },
  { name: 'an id that is null', body: () => ping(null), status: 200, answer: INVALID },
  {
    name: 'a method that is not a string',
    body: () => '{"jsonrpc":"2.0","id":5,"method":42}',
    status: 200,
    answer: bad(-32600, 'Invalid Request', 5),
  },
  {
    name: 'params that are an array',
    body: () => '{"jsonrpc":"2.0","id":5,"method":"ping","params":[1,2]}',
    status: 200,
    answer: bad(-32600, 'Invalid Request: params must be an object', 5),
  },
  {
    name: 'params that are a string',
    body: () => '{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}',
    status: 200,
    answer: bad(-32600, 'Invalid Request: params must be an object', 5),
  },
  { name: 'no jsonrpc member', body: () => '{"id":5,"method":"ping"}', status: 200, answer: INVALID },
  {
    name: 'jsonrpc "1.0"',
    body: () => '{"jsonrpc":"1.0","id":5,"method":"ping"}',
    status: 200,
    answer: INVALID,
  },
  {
    name: 'jsonrpc 2 (a number)',
    body: () => '{"jsonrpc":2,"id":5,"method":"ping"}',
    status: 200,
    answer: INVALID,
  },
  { name: 'neither method nor result', body: () => '{"jsonrpc":"2.0","id":5}', status: 200, answer: INVALID },
  { name: 'a result sent by the client', body: () => '{"jsonrpc":"2.0","id":5,"result":{}}', status: 202 },
  {
    name: 'an error sent by the client',
    body: () => '{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}',
    status: 202,
  },
  {
    name: 'a method the server does not have',
    body: () => '{"jsonrpc":"2.0","id":5,"method":"no/such"}',
    status: 200,
    answer: bad(-32601, 'Method not found', 5),
  },
  {
    name: 'a method named like an Object.prototype member',
    body: () => '{"jsonrpc":"2.0","id":5,"method":"constructor"}',
    status: 200,
    answer: bad(-32601, 'Method not found', 5),
  },
  {
    name: 'notifications/cancelled for an id never sent',
    body: () => '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never"}}',
    status: 202,
  },
  {
    name: 'notifications/cancelled with a requestId that is an object',
    body: () => '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}',
    status: 202,
  },
  {
    name: 'notifications/cancelled with params that are not an object',
    body: () => '{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}',
    status: 202,
  },
  { name: 'an unknown notification', body: () => '{"jsonrpc":"2.0","method":"no/such"}', status: 202 },
  {
    name: 'tool arguments that are an array',
    body: () => echo('["hi"]'),
    status: 200,
    answer: bad(-32602, 'arguments must be an object', 7),
  },
  {
    name: 'tool arguments that are a string',
    body: () => echo('"hi"'),
    status: 200,
    answer: bad(-32602, undefined, 7),
  },
  {
    name: 'tool arguments that are a number',
    body: () => echo('1'),
    status: 200,
    answer: bad(-32602, undefined, 7),
  },
  {
    name: 'tool arguments that are true',
    body: () => echo('true'),
    status: 200,
    answer: bad(-32602, undefined, 7),
  },
  {
    name: 'tool arguments null count as none (then fail validation)',
    body: () => echo('null'),
    status: 200,
    answer: { id: 7, result: INVALID_ARGUMENTS },
  },
  {
    name: 'a tool name that is not a string',
    body: () => '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":["echo"]}}',
    status: 200,
    answer: bad(-32602, 'name must be a string', 6),
  },
  {
    name: 'a resource URI of 1 MiB',
    body: () => JSON.stringify(req(9, 'resources/read', { uri: `test://${'x'.repeat(1 << 20)}` })),
    status: 200,
    answer: { id: 9, error: { code: -32002 } },
  },
  {
    name: 'a resource URI of 1 MiB that matches a template',
    body: () => JSON.stringify(req(9, 'resources/read', { uri: `test://items/${'x'.repeat(1 << 20)}` })),
    status: 200,
    answer: { id: 9, result: { contents: [{ mimeType: 'application/json' }] } },
  },
  {
    name: 'a resource URI with control characters',
    body: () => JSON.stringify(req(9, 'resources/read', { uri: 'test://status\u0000\r\n\u001b[2J' })),
    status: 200,
    answer: { id: 9, error: { code: -32002 } },
  },
  {
    name: 'a template variable with control characters and broken escapes',
    body: () => JSON.stringify(req(9, 'resources/read', { uri: 'test://items/\u0000\u0007%E0%A4%A\ud800' })),
    status: 200,
    answer: { id: 9, result: { contents: [{ uri: 'test://items/\u0000\u0007%E0%A4%A\ud800' }] } },
  },
  {
    name: 'a cursor that is an object',
    body: () => JSON.stringify(req(10, 'tools/list', { cursor: { k: 'tools', o: 1 } })),
    status: 200,
    answer: bad(-32602, 'Invalid cursor', 10),
  },
  {
    name: 'a cursor of 1 MiB of garbage',
    body: () => JSON.stringify(req(10, 'tools/list', { cursor: 'A'.repeat(1 << 20) })),
    status: 200,
    answer: bad(-32602, 'Invalid cursor', 10),
  },
  {
    name: 'a cursor whose offset is 1e400',
    body: () =>
      JSON.stringify(
        req(10, 'tools/list', { cursor: Buffer.from('{"k":"tools","o":1e400}').toString('base64url') }),
      ),
    status: 200,
    answer: bad(-32602, 'Invalid cursor', 10),
  },
  {
    name: 'a log level that is a number',
    body: () => JSON.stringify(req(11, 'logging/setLevel', { level: 3 })),
    status: 200,
    answer: bad(-32602, undefined, 11),
  },
  {
    name: 'a subscription to a URI that is not a string',
    body: () => JSON.stringify(req(12, 'resources/subscribe', { uri: ['test://status'] })),
    status: 200,
    answer: bad(-32602, 'uri must be a string', 12),
  },
  {
    name: 'a completion ref of the wrong shape',
    body: () =>
      JSON.stringify(
        req(13, 'completion/complete', { ref: 'ref/prompt', argument: { name: 'a', value: 'b' } }),
      ),
    status: 200,
    answer: bad(-32602, undefined, 13),
  },
  {
    name: 'a completion argument that is not a string pair',
    body: () =>
      JSON.stringify(
        req(13, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: [1] }),
      ),
    status: 200,
    answer: bad(-32602, 'argument must have a string name and value', 13),
  },
  {
    name: 'a resource URI that is not a string',
    body: () => JSON.stringify(req(9, 'resources/read', { uri: { href: 'test://status' } })),
    status: 200,
    answer: bad(-32602, 'uri must be a string', 9),
  },
];

/** 2026 headers for a request; `name` is sent as `Mcp-Name` when given. */
const modernHeaders = (method: string, name?: string) => () => ({
  ...MODERN,
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
});
const b64 = (bytes: Buffer | string) => `=?base64?${Buffer.from(bytes).toString('base64')}?=`;
/** A 2026 request body with the envelope's `_meta` replaced (or extended) by `meta`. */
const withMeta = (method: string, params: Record<string, unknown>, meta: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } });
const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const LONG_URI = `test://${'u'.repeat(60_000)}`;
const CONTROL_URI = 'test://status\u0000\r\n\u001b[2J';
const discover = modernHeaders('server/discover');

const ENVELOPE_CASES: BodyCase[] = [
  {
    name: 'a protocol version that is a number',
    body: () => withMeta('server/discover', {}, { [PV]: 20260728, [CAPS]: {} }),
    on: discover,
    status: 400,
    answer: bad(
      -32020,
      "MCP-Protocol-Version header does not match the request envelope's protocol version",
      1,
    ),
  },
  {
    name: 'a protocol version that is null',
    body: () => withMeta('server/discover', {}, { [PV]: null, [CAPS]: {} }),
    on: discover,
    status: 400,
    answer: bad(-32020, undefined, 1),
  },
  {
    name: 'an unsupported protocol version, header and envelope agreeing',
    body: () => withMeta('server/discover', {}, { [PV]: '2027-01-01', [CAPS]: {} }),
    on: () => ({ ...discover(), 'mcp-protocol-version': '2027-01-01' }),
    status: 400,
    answer: {
      id: 1,
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2027-01-01' } },
    },
  },
  ...(['a string', 'null', 'an array', 'a number'] as const).map((kind, i) => ({
    name: `client capabilities that are ${kind}`,
    body: () => withMeta('server/discover', {}, { [PV]: '2026-07-28', [CAPS]: ['caps', null, [], 1][i] }),
    on: discover,
    status: 400,
    answer: bad(-32602, `${CAPS} must be an object`, 1),
  })),
  {
    name: 'client info that is a string is ignored',
    body: () => withMeta('server/discover', {}, { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'me' }),
    on: discover,
    status: 200,
    answer: { id: 1, result: { resultType: 'complete' } },
  },
  {
    name: 'a log level that is not a level',
    body: () => withMeta('server/discover', {}, { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 42 }),
    on: discover,
    status: 400,
    answer: bad(-32602, undefined, 1),
  },
  {
    name: 'only the protocol version key',
    body: () => withMeta('server/discover', {}, { [PV]: '2026-07-28' }),
    on: discover,
    status: 400,
    answer: bad(-32602, `params._meta is missing the required envelope key(s): ${CAPS}`, 1),
  },
  ...(['a string', 'an array', 'null', 'a number'] as const).map((kind, i) => ({
    name: `_meta that is ${kind}`,
    body: () => withMeta('server/discover', {}, ['meta', [ENVELOPE], null, 1][i]),
    on: discover,
    status: 400,
    answer: bad(-32602, `params._meta is missing the required envelope key(s): ${PV}, ${CAPS}`, 1),
  })),
  {
    name: '_meta whose envelope hides under __proto__',
    body: () =>
      `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"__proto__":${JSON.stringify(ENVELOPE)}}}}`,
    on: discover,
    status: 400,
    answer: bad(-32602, undefined, 1),
  },
  {
    name: 'params that are a string, with the 2026 header',
    body: () => '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":"x"}',
    on: discover,
    status: 400,
    answer: bad(-32602, undefined, 1),
  },
  {
    name: 'a method that is not a string',
    body: () =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: ['server/discover'], params: { _meta: ENVELOPE } }),
    on: discover,
    status: 400,
    answer: bad(-32020, "Mcp-Method header does not match the request body's method", 1),
  },
  {
    name: 'an id that is a boolean',
    body: () => JSON.stringify({ ...modern(1, 'server/discover'), id: true }),
    on: discover,
    status: 200,
    answer: INVALID,
  },
  {
    name: 'a notification with the envelope is accepted and dropped',
    body: () =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: ENVELOPE },
      }),
    on: modernHeaders('notifications/cancelled'),
    status: 202,
  },
  {
    name: 'Mcp-Name in base64 that decodes to invalid UTF-8',
    body: () => JSON.stringify(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } })),
    on: modernHeaders('tools/call', b64(Buffer.from([0x65, 0xff, 0xfe]))),
    status: 400,
    answer: bad(-32020, "Mcp-Name header does not match the request body's 'name' parameter", 1),
  },
  {
    name: 'Mcp-Name in broken base64',
    body: () => JSON.stringify(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } })),
    on: modernHeaders('tools/call', '=?base64?ZWNo!!==?='),
    status: 400,
    answer: bad(-32020, undefined, 1),
  },
  {
    name: 'Mcp-Name in base64 that decodes to the name',
    body: () => JSON.stringify(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } })),
    on: modernHeaders('tools/call', b64('echo')),
    status: 200,
    answer: { id: 1, result: { structuredContent: { text: 'x' } } },
  },
  ...(['an array', 'a string', 'a number', 'false'] as const).map((kind, i) => ({
    name: `tool arguments that are ${kind}`,
    body: () =>
      JSON.stringify(modern(1, 'tools/call', { name: 'echo', arguments: [['x'], 'x', 1, false][i] })),
    on: modernHeaders('tools/call', 'echo'),
    status: 200,
    answer: bad(-32602, 'arguments must be an object', 1),
  })),
  {
    name: 'a resource URI of 60 KB (unknown: -32602 on 2026)',
    body: () => JSON.stringify(modern(1, 'resources/read', { uri: LONG_URI })),
    on: modernHeaders('resources/read', LONG_URI),
    status: 200,
    answer: { id: 1, error: { code: -32602 } },
  },
  {
    name: 'a resource URI with control characters, named in base64',
    body: () => JSON.stringify(modern(1, 'resources/read', { uri: CONTROL_URI })),
    on: modernHeaders('resources/read', b64(CONTROL_URI)),
    status: 200,
    answer: { id: 1, error: { code: -32602 } },
  },
  {
    name: 'ping, which 2026 does not have',
    body: () => JSON.stringify(modern(1, 'ping')),
    on: modernHeaders('ping'),
    status: 404,
    answer: bad(-32601, 'Method not found', 1),
  },
  {
    name: 'a batch of 2026 requests',
    body: () => JSON.stringify([modern(1, 'server/discover'), modern(2, 'server/discover')]),
    on: discover,
    status: 400,
    answer: bad(-32600, 'JSON-RPC batches are not supported by protocol version 2026-07-28'),
  },
];

function runCases(cases: BodyCase[]) {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const reply = await post(port, c.body(), (c.on ?? (() => current))());
    expect(reply.status).toBe(c.status);
    if (c.answer === undefined) expect(reply.text).toBe('');
    else expect(json(reply)).toMatchObject(c.answer as object);
  });
}

describe('JSON edge cases in the body get -32700 or a JSON-RPC error, never a crash', () => {
  runCases(JSON_CASES);
});

describe('2026-07-28 envelope and header oddities get the documented 400 or JSON-RPC error', () => {
  runCases(ENVELOPE_CASES);
});

describe('JSON-RPC edge cases get the documented error', () => {
  runCases(RPC_CASES);

  it('cancelling the same call twice: no response for it, and both notifications are accepted', async () => {
    const call = slowCall('twice', 10);
    await call.started;
    const cancel = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'twice', reason: 'changed my mind' },
    });
    expect((await post(port, cancel, current)).status).toBe(202);
    expect((await post(port, cancel, current)).status).toBe(202);
    const reply = await call.done;
    expect(reply.status).toBe(200);
    expect(parseEvents(reply.text).filter((m) => (m as { id?: unknown }).id === 'twice')).toEqual([]);
  });
});

describe('initialize with odd params', () => {
  it.each([
    ['a protocol version that is a number', { protocolVersion: 20251125, capabilities: {} }],
    ['a protocol version that is an object', { protocolVersion: { v: '2025-11-25' }, capabilities: {} }],
    [
      'capabilities that are an array and client info that is a string',
      { capabilities: [1], clientInfo: 'me' },
    ],
    ['no params at all', undefined],
  ] as const)('%s: answered at 2025-11-25 with a session', async (_name, params) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      ...(params ? { params } : {}),
    });
    const reply = await post(port, body, BASE);
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(json(reply)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
  });

  it('params that are an array: -32600 and no session left behind', async () => {
    const reply = await post(port, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":[]}', BASE);
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    expect(json(reply)).toEqual(bad(-32600, 'Invalid Request: params must be an object', 1));
  });
});

describe('a request id reused while the first request runs', () => {
  it('one notifications/cancelled cancels both: neither gets a response', async () => {
    const first = slowCall('dup', 3);
    const second = slowCall('dup', 3);
    await Promise.all([first.started, second.started]);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'dup' } };
    expect((await post(port, JSON.stringify(cancel), current)).status).toBe(202);
    for (const reply of await Promise.all([first.done, second.done])) {
      expect(reply.status).toBe(200);
      expect(parseEvents(reply.text).filter((m) => (m as { id?: unknown }).id === 'dup')).toEqual([]);
    }
  });
});

describe('the deprecated HTTP+SSE endpoints', () => {
  interface LegacyStream {
    endpoint: string;
    messages: () => unknown[];
    /** Resolves once the stream has carried `count` messages. */
    received: (count: number) => Promise<void>;
    close: () => void;
  }
  /** Open `GET /sse`; resolves with the message endpoint and a view of the stream's messages. */
  function openLegacy(): Promise<LegacyStream> {
    return new Promise((resolve, reject) => {
      const r = request(
        { host: '127.0.0.1', port, path: '/sse', headers: { ...BASE, accept: 'text/event-stream' } },
        (res) => {
          let text = '';
          let opened = false;
          const waiters: Array<{ count: number; wake: () => void }> = [];
          const messages = () => parseEvents(text);
          const wakeReady = () => {
            const count = messages().length;
            for (const w of waiters.filter((w) => w.count <= count)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.wake();
            }
          };
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            wakeReady();
            const endpoint = /data: (\/messages\/\?session_id=[0-9a-f]{32})/.exec(text)?.[1];
            if (endpoint && !opened) {
              opened = true;
              resolve({
                endpoint,
                messages,
                received: (count) =>
                  new Promise<void>((wake) => {
                    waiters.push({ count, wake });
                    wakeReady();
                  }),
                close: () => r.destroy(),
              });
            }
          });
        },
      );
      r.on('error', reject);
      r.end();
    });
  }

  it('bad bodies get the same answers as on /mcp; a closed stream ends its session', async () => {
    const legacy = await openLegacy();
    const to = (body: string | Buffer) => post(port, body, BASE, legacy.endpoint);
    expect(json(await to(withBytes(echo('{"text":"a@b"}'), [0xff])))).toEqual(bad(-32700, 'Parse error'));
    expect((await to('{"jsonrpc":')).status).toBe(400);
    expect((await to(JSON.stringify(initialize(1)))).status).toBe(202);
    expect((await to(JSON.stringify(initialized))).status).toBe(202);
    expect((await to('"just a string"')).status).toBe(202);
    expect((await to(ping({}))).status).toBe(202);
    expect((await to(ping('after'))).status).toBe(202);
    await legacy.received(4);
    expect(legacy.messages()).toEqual([
      expect.objectContaining({ id: 1 }),
      INVALID,
      INVALID,
      { jsonrpc: '2.0', id: 'after', result: {} },
    ]);
    legacy.close();
    // The server ends the session when it sees the stream close, which this side cannot watch:
    // ask until it has (a ping to a session still open is accepted with 202 and goes nowhere).
    let gone = await to(ping(2));
    for (let tries = 0; gone.status === 202 && tries < 200; tries++) gone = await to(ping(2));
    expect(gone.status).toBe(404);
    expect(json(gone)).toEqual(bad(-32600, 'Session not found'));
  });

  it.each([
    ['no session_id', '/messages/', 400],
    ['an unknown session_id', '/messages/?session_id=feed', 404],
    ['a session_id with broken escapes', '/messages/?session_id=%zz%', 404],
    ['two session_ids', '/messages/?session_id=a&session_id=b', 404],
  ] as const)('a POST with %s', async (_name, path, status) => {
    const reply = await post(port, ping(1), BASE, path);
    expect(reply.status).toBe(status);
    expect(json(reply)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

describe('stdio: hostile lines get -32700 or a JSON-RPC error and the connection keeps serving', () => {
  interface LineCase {
    name: string;
    line: () => string | Buffer;
    /** The one message the line gets back; none when the line is ignored. */
    answer?: unknown;
  }
  const PARSE_ERROR = bad(-32700, 'Parse error');
  const LINE_CASES: LineCase[] = [
    { name: 'a line of invalid JSON', line: () => 'this is not json', answer: PARSE_ERROR },
    { name: 'a line of only whitespace is skipped', line: () => ' \t  ' },
    { name: 'an empty line is skipped', line: () => '' },
    {
      name: 'CRLF line endings',
      line: () => `${JSON.stringify(req('crlf', 'ping'))}\r`,
      answer: { jsonrpc: '2.0', id: 'crlf', result: {} },
    },
    { name: 'a 10 MB line of garbage', line: () => 'x'.repeat(10 << 20), answer: PARSE_ERROR },
    {
      name: 'a 10 MB request',
      line: () => JSON.stringify(req('big', 'ping', { pad: 'y'.repeat(10 << 20) })),
      answer: { jsonrpc: '2.0', id: 'big', result: {} },
    },
    {
      name: 'invalid UTF-8 bytes',
      line: () => withBytes(echo('{"text":"a@b"}'), [0xc3, 0x28, 0xff]),
      answer: PARSE_ERROR,
    },
    {
      name: 'a lone surrogate escape comes back as sent',
      line: () => echo('{"text":"\\udc00"}'),
      answer: { id: 7, result: { structuredContent: { text: '\udc00' } } },
    },
    {
      name: 'a raw control character inside a string',
      line: () => '{"jsonrpc":"2.0","id":1,"method":"p\u0001"}',
      answer: PARSE_ERROR,
    },
    { name: 'JSON null', line: () => 'null', answer: INVALID },
    { name: 'an empty batch', line: () => '[]', answer: bad(-32600, 'Invalid Request: empty batch') },
    {
      name: 'arrays nested 100k deep',
      line: () => nested(100_000, '[', ']'),
      answer: bad(-32600, 'JSON-RPC batches are not supported by protocol version 2025-11-25'),
    },
    { name: 'an id that is an object', line: () => ping({}), answer: INVALID },
    { name: 'a result sent by the client is ignored', line: () => '{"jsonrpc":"2.0","id":3,"result":{}}' },
    {
      name: 'notifications/cancelled for an id never sent',
      line: () => '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
    },
    { name: 'tool arguments that are an array', line: () => echo('[1]'), answer: bad(-32602, undefined, 7) },
    {
      name: 'a second initialize',
      line: () => JSON.stringify(initialize(14)),
      answer: bad(-32600, 'Session already initialized', 14),
    },
    {
      name: 'a 2026 envelope on this handshake connection',
      line: () => JSON.stringify(modern(15, 'server/discover')),
      answer: { id: 15, error: { code: -32600 } },
    },
  ];

  let child: StdioChild;
  beforeAll(async () => {
    child = new StdioChild();
    child.write(initialize(1), initialized);
    await child.waitFor((m) => m.id === 1);
  });
  afterAll(async () => {
    child.end();
    expect(await child.exited).toBe(0);
    expect(child.stderr).toContain('stdio server finished');
  });

  it.each(LINE_CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const from = child.lines.length;
    const after = `after-${i}`;
    const line = c.line();
    child.proc.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
    child.write(req(after, 'ping'));
    const expected = c.answer === undefined ? 0 : 1;
    await child.waitFor((m) => m.id === after);
    const others = () =>
      child.lines
        .slice(from)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((m) => m.id !== after);
    if (others().length < expected) await child.waitFor(() => others().length >= expected);
    if (c.answer === undefined) expect(others()).toEqual([]);
    else expect(others()).toMatchObject([c.answer]);
  });

  it('a client that stops reading mid-answer: end of input still ends the server cleanly', async () => {
    const gone = new StdioChild();
    gone.write(initialize(), initialized);
    await gone.waitFor((m) => m.id === 1);
    // Answers of 2 MB each fill the pipe; with its reader gone every write fails (EPIPE).
    gone.proc.stdout.destroy();
    let sent: Promise<void> = Promise.resolve();
    for (let id = 2; id < 6; id++) {
      const line = echo(JSON.stringify({ text: 'z'.repeat(1 << 20) })).replace('"id":7', `"id":${id}`);
      sent = new Promise((resolve) => gone.proc.stdin.write(`${line}\n`, () => resolve()));
    }
    // A pipe holds 64 KiB, so the last write completes only once the server has read nearly all
    // 8 MiB of requests and is answering them into the closed pipe; then the input ends.
    await sent;
    gone.end();
    expect(await gone.exited).toBe(0);
    expect(gone.stderr).toContain('stdio server finished');
  });

  it.each([
    ['in the middle of a line: a parse error', '{"jsonrpc":"2.0","id":1,"method":"pi', PARSE_ERROR],
    [
      'in the middle of a multi-byte character: a parse error',
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
        Buffer.from([0xc3]),
      ]),
      PARSE_ERROR,
    ],
    [
      'after a whole message without its newline: answered',
      JSON.stringify(req(1, 'ping')),
      { id: 1, result: {} },
    ],
  ] as const)('end of input %s', async (_name, tail, answer) => {
    const eof = new StdioChild();
    eof.proc.stdin.end(tail);
    expect(await eof.exited).toBe(0);
    expect(eof.messages()).toMatchObject([answer]);
  });
});
