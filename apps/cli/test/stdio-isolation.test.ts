/**
 * MCP.md 6.1: `cloudg-mcp serve` over stdio keeps stdout for protocol messages even when a tool
 * writes to descriptor 1 directly or runs a child process that inherits it. Runs the built
 * command as a real process, as a desktop client launches it.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const REGISTRY = fileURLToPath(new URL('./fixtures/fd-writer-registry.mjs', import.meta.url));

const MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'scribble', arguments: {} } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'env_probe', arguments: {} } },
];

function serveOnce(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--registry', `${REGISTRY}:defaultRegistry`, '--no-sample-estate'],
    { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(MESSAGES.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('serve over stdio (MCP.md 6.1)', () => {
  it('sends only protocol messages to stdout; descriptor-level writes and child processes go to stderr', async () => {
    const run = await serveOnce({});
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const messages = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(messages[1]).toMatchObject({ result: { structuredContent: { scribbled: true } } });
    // The descriptor number is not passed on to programs the server starts.
    expect(messages[2]).toMatchObject({ result: { structuredContent: { protocol_fd: null } } });
    expect(run.stderr).toContain('fs.writeSync(1) from a handler');
    expect(run.stderr).toContain('console.log from a handler');
    expect(run.stderr).toContain('a child process inheriting stdout');
  });

  it('CLOUDG_MCP_STDIO_ISOLATION=off serves in one process, where only stream-level writes are caught', async () => {
    const run = await serveOnce({ CLOUDG_MCP_STDIO_ISOLATION: 'off' });
    expect(run.code).toBe(0);
    // The documented limit of the in-process guard: the descriptor-level write lands on stdout.
    expect(run.stdout).toContain('fs.writeSync(1) from a handler');
    expect(run.stderr).toContain('console.log from a handler');
  }, 30_000);

  it('stops on SIGTERM while the client keeps stdin open, and the launcher exits 0', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--registry', `${REGISTRY}:defaultRegistry`, '--no-sample-estate'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stdin.write(`${JSON.stringify(MESSAGES[0])}\n`);
    // Wait until the relaunched server answers, so the signal reaches a running server.
    while (!stdout.includes('"id":1')) await new Promise((r) => setTimeout(r, 50));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    child.stdin.destroy();
  }, 30_000);
});
