/** `serve --redis-url` (env CLOUDG_MCP_REDIS_URL): a server that cannot reach Redis does not start. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { startRedis } from './support/redis-server.js';

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('serve --redis-url', () => {
  it('refuses to start with status 2 and says why when Redis does not answer', async () => {
    const port = await closedPort();
    const run = await cli([
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--redis-url',
      `redis://:hunter2@127.0.0.1:${port}`,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Cannot reach Redis at redis://:***@127.0.0.1:${port}`);
    expect(run.stderr).toContain('not starting (shared state is required with --redis-url)');
    expect(run.stderr).not.toContain('hunter2');
  });

  it('reads CLOUDG_MCP_REDIS_URL when the option is absent', async () => {
    const port = await closedPort();
    const run = await cli(['serve', '--transport', 'http', '--port', '0'], {
      env: { CLOUDG_MCP_REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Cannot reach Redis at redis://127.0.0.1:${port}`);
  });

  it('with a reachable Redis, builds the policy around the shared stores and asks for the vault key they are sealed with', async () => {
    const redis = await startRedis();
    try {
      const run = await cli(
        ['serve', '--transport', 'http', '--port', '0', '--policy', 'standard', '--redis-url', redis.url],
        { env: {} },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '--redis-url needs the vault key every replica shares (set CLOUDG_MCP_VAULT_KEY)',
      );
    } finally {
      await redis.stop();
    }
  });
});
