/**
 * The README's main command (`pnpm start`) as a subprocess: wait for the start-up line, then list
 * tools and call find_assets with the official MCP client in both protocol eras.
 *
 * @dist it runs `pnpm start`, which serves the built CLI.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let child: ChildProcess | undefined;
let url = '';
let stderr = '';
let stdout = '';

/**
 * Resolves once turbo's cache holds every build that `pnpm start` runs. This test runs in
 * `test:dist`, after turbo has built the CLI and everything it depends on, but turbo saves a
 * task's outputs to its cache while the dependent tasks already run: started before that, the
 * build in `pnpm start` would miss the cache and rebuild dist/ under the other test files that
 * run it. Once every build is a hit, it replays the cache and leaves dist/ as it is.
 */
async function buildsCached(env: NodeJS.ProcessEnv): Promise<void> {
  const args = ['exec', 'turbo', 'run', 'build', '--filter=@cloudg/cli...', '--dry=json'];
  for (let tries = 0; ; tries++) {
    const dry = spawnSync('pnpm', args, { cwd: ROOT, env, encoding: 'utf8' });
    const tasks = (JSON.parse(dry.stdout) as { tasks: Array<{ taskId: string; cache: { status: string } }> })
      .tasks;
    const missing = tasks.filter((t) => t.cache.status !== 'HIT').map((t) => t.taskId);
    if (missing.length === 0) return;
    if (tries >= 120)
      throw new Error(`turbo has no cached build of ${missing.join(', ')}: run \`pnpm build\` first`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  // A forced run (TURBO_FORCE) must not reach the build in `pnpm start` either.
  const { TURBO_FORCE: _force, ...env } = process.env;
  await buildsCached(env);
  // Exactly the README's main command, with a free port appended.
  child = spawn('pnpm', ['start', '--port', '0'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line; stderr:\n${stderr}`)), 240_000);
    child!.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The start-up line and the connect hint may arrive in separate chunks: wait for both.
      const match = /cloudg MCP server \(native, http\) listening on (http:\/\/\S+)/.exec(stderr);
      if (match && stderr.includes('Connect a client:')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child!.on('exit', (code) => reject(new Error(`pnpm start exited with ${code}; stderr:\n${stderr}`)));
  });
}, 300_000);

afterAll(() => {
  // The whole process group: pnpm, turbo and the server.
  if (child?.pid) process.kill(-child.pid, 'SIGTERM');
});

describe('pnpm start', () => {
  it('shows the build as it goes, one line per package, instead of building silently', () => {
    expect(stdout).toMatch(/Running build in \d+ packages/);
    expect(stdout).toMatch(/@cloudg\/core:build: /);
  });

  it('prints a connect hint that runs as printed from the checkout', () => {
    const hint = /Connect a client: (pnpm cloudg-mcp config [^(]*?) \(or/.exec(stderr)?.[1];
    expect(hint).toBeDefined();
    const [command, ...args] = hint!.trim().split(/\s+/);
    const result = spawnSync(command!, args, { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { cloudg: { type: 'http', url } } });
  });
});

describe.each(['auto', 'legacy'] as const)('pnpm start, official client with negotiation %s', (mode) => {
  it('lists tools and calls find_assets on the bundled sample estate', async () => {
    expect(stderr).toContain('Connect a client: pnpm cloudg-mcp config');
    const client = new Client({ name: 'readme-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
      const names = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        for (const tool of page.tools) names.add(tool.name);
        cursor = page.nextCursor;
      } while (cursor);
      expect(names).toContain('find_assets');
      expect(names).toContain('workspace_status');
      const result = await client.callTool({
        name: 'find_assets',
        arguments: { internet_exposed: true, limit: 3 },
      });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ total: 6, returned: 3, truncated: true });
    } finally {
      await client.close();
    }
  });
});
