/** MCP.md 6.1: stdio framing in a real child process, a clean stdout, concurrency, cancellation, end of input. */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { MetaKeys } from '../src/index.js';
import { NODE_ARGS, PACKAGE_DIR, StdioChild } from './support/child.js';
import { initialize, initialized, modern, req } from './support/rpc.js';

let child: StdioChild | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

const byId = (id: unknown) => (m: Record<string, unknown>) => m.id === id;

describe('stdio', () => {
  it('frames one message per line and keeps stdout clean even when a handler writes to it', async () => {
    child = new StdioChild();
    child.write(
      initialize(1, '2025-06-18'),
      initialized,
      req(2, 'tools/call', { name: 'shout', arguments: {} }),
      'this is not json',
      req(3, 'tools/call', { name: 'echo', arguments: { text: 'hihi' } }),
    );
    child.end();
    expect(await child.exited).toBe(0);
    // Every stdout line is a JSON-RPC message; the handler's writes went to stderr.
    const messages = child.messages();
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(messages.find(byId(1))).toMatchObject({
      result: {
        protocolVersion: '2025-06-18',
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
        serverInfo: { name: 'cloudg' },
      },
    });
    expect(messages.find(byId(2))).toMatchObject({ result: { structuredContent: { shouted: true } } });
    expect(messages.find(byId(3))).toMatchObject({ result: { structuredContent: { text: 'hihi' } } });
    expect(messages.find(byId(null))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect(child.stderr).toContain('console.log from a handler');
    expect(child.stderr).toContain('process.stdout.write from a handler');
  });

  it('on its own descriptor, the protocol stream stays clean even from fd-level writes and child processes', async () => {
    // How `cloudg-mcp serve` runs: descriptor 1 is not the client's; the protocol goes to fd 3.
    const proc = spawn(process.execPath, NODE_ARGS, {
      cwd: PACKAGE_DIR,
      env: { ...process.env, STDOUT_FD: '3' },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    const collect = (stream: NodeJS.ReadableStream) => {
      let text = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        text += chunk;
      });
      return () => text;
    };
    const protocol = collect(proc.stdio[3] as NodeJS.ReadableStream);
    const fd1 = collect(proc.stdout);
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    proc.stdin.end(
      [
        initialize(1, '2025-11-25'),
        initialized,
        req(2, 'tools/call', { name: 'shout_fd', arguments: {} }),
        req(3, 'tools/call', { name: 'shout', arguments: {} }),
      ]
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    expect(await exited).toBe(0);
    const lines = protocol().trimEnd().split('\n');
    const messages = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(messages.find(byId(2))).toMatchObject({ result: { structuredContent: { shouted: true } } });
    expect(fd1()).toContain('fs.writeSync(1) from a handler');
    expect(fd1()).toContain('a child process inheriting stdout');
    expect(protocol()).not.toContain('from a handler');
  });

  it('serves requests concurrently: ping answers while a call runs; a cancelled call gets no response', async () => {
    child = new StdioChild();
    child.write(
      initialize(),
      initialized,
      req(2, 'tools/call', { name: 'slow', arguments: { seconds: 20 } }),
      req(3, 'ping'),
    );
    expect(await child.waitFor(byId(3))).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    child.write(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
      req(4, 'ping'),
    );
    await child.waitFor(byId(4));
    child.end();
    expect(await child.exited).toBe(0);
    expect(child.messages().find(byId(2))).toBeUndefined();
  });

  it('gives requests in flight at end of input their grace period', async () => {
    child = new StdioChild();
    child.write(
      initialize(),
      initialized,
      req(2, 'tools/call', { name: 'slow', arguments: { seconds: 0.5 } }),
    );
    child.end();
    expect(await child.exited).toBe(0);
    expect(child.messages().find(byId(2))).toMatchObject({ result: { structuredContent: { slept: 0.5 } } });
  });

  it('speaks 2026-07-28 when the first request carries the envelope, listen streams included', async () => {
    child = new StdioChild();
    child.write(modern(1, 'server/discover'));
    expect(await child.waitFor(byId(1))).toMatchObject({
      result: { supportedVersions: expect.arrayContaining(['2026-07-28']), resultType: 'complete' },
    });
    child.write(modern('sub', 'subscriptions/listen', { notifications: { promptsListChanged: true } }));
    await child.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    child.write(modern(2, 'tools/call', { name: 'touch', arguments: { kind: 'prompts' } }), initialize(3));
    const changed = await child.waitFor((m) => m.method === 'notifications/prompts/list_changed');
    expect(changed.params).toEqual({ _meta: { [MetaKeys.subscriptionId]: 'sub' } });
    expect(await child.waitFor(byId(3))).toMatchObject({ error: { code: -32022 } });
    child.end();
    expect(await child.exited).toBe(0);
    // End of input ends the listen stream gracefully.
    expect(child.messages().find(byId('sub'))).toMatchObject({
      result: { resultType: 'complete', _meta: { [MetaKeys.subscriptionId]: 'sub' } },
    });
  });
});
