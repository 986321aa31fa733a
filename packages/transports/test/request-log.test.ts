/** The request log: one DEBUG line per MCP request, whatever the transport, never an argument value. */
import { Writable } from 'node:stream';
import { createLogger, Principal } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { McpProtocolServer, requestOutcome } from '../src/index.js';
import { initialize, initialized, modern, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

function serverLogging(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger({ level, destination, format: 'json', env: {} });
  const server = new McpProtocolServer(buildLayer({ logger }));
  const session = server.createSession({
    transport: 'memory',
    principal: new Principal({ id: 'alice', roles: ['analyst'] }),
  });
  return { server, session, lines: () => lines.filter((l) => l.event === 'mcp.request') };
}

describe('request log', () => {
  it('writes method, target, principal, outcome and duration for each request at DEBUG', async () => {
    const { server, session, lines } = serverLogging('debug');
    await session.handle(initialize());
    await session.handle(initialized);
    await session.handle(req(2, 'tools/list'));
    await session.handle(req(3, 'tools/call', { name: 'echo', arguments: { text: 'prod-db.internal' } }));
    await session.handle(req(4, 'tools/call', { name: 'boom' }));
    await session.handle(req(5, 'tools/call', { name: 'nope' }));
    await session.handle(req(6, 'resources/read', { uri: 'test://status' }));
    await session.handle(req(7, 'no/such/method'));
    server.close();

    const log = lines();
    expect(log.map((l) => [l.method, l.tool ?? l.uri ?? null, l.outcome])).toEqual([
      ['initialize', null, 'ok'],
      ['tools/list', null, 'ok'],
      ['tools/call', 'echo', 'ok'],
      ['tools/call', 'boom', 'error'],
      ['tools/call', 'nope', 'not_found'],
      ['resources/read', 'test://status', 'ok'],
      ['no/such/method', null, 'rejected'],
    ]);
    for (const line of log) {
      expect(line).toMatchObject({ level: 20, principal: 'alice', transport: 'memory' });
      expect(typeof line.duration_ms).toBe('number');
    }
    expect(log[3]!.code).toBe('handler_error');
    expect(log[6]!.code).toBe(-32601);
    expect(log[2]!.msg).toBe('tools/call echo ok');
    expect(JSON.stringify(log)).not.toContain('prod-db.internal');
  });

  it('covers 2026-era requests, and says nothing above DEBUG', async () => {
    const modernLog = serverLogging('debug');
    await modernLog.session.handle(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }));
    modernLog.server.close();
    expect(modernLog.lines()).toMatchObject([{ method: 'tools/call', tool: 'echo', outcome: 'ok' }]);

    const quiet = serverLogging('info');
    await quiet.session.handle(initialize());
    await quiet.session.handle(req(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }));
    quiet.server.close();
    expect(quiet.lines()).toEqual([]);
  });

  it('classifies failures the way the audit log does', () => {
    expect(requestOutcome(new Error('x'))).toBe('exception');
  });
});
