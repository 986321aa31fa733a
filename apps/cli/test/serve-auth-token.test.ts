/**
 * MCP.md 5.3: token specs are validated before the server starts, whatever the transport. Over
 * stdio the tokens are then ignored, but a spec naming an empty variable still stops start-up,
 * here with a real `cloudg-mcp serve` whose stdin stays open as a desktop client's would.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/**
 * Run the binary with stdin left open; a server that starts instead of failing is killed after
 * 30 s (long enough for a start-up on a machine busy with the rest of the suite).
 */
function serve(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('serve --auth-token over stdio', () => {
  const env = { ...process.env };
  delete env.NOPE_VAR;
  delete env.CLOUDG_MCP_AUTH_TOKENS;

  it('refuses an env: token whose variable is empty, as MCP.md 5.3 shows, instead of serving', async () => {
    for (const args of [
      ['--auth-token', 'env:NOPE_VAR:x'],
      ['--transport', 'stdio', '--auth-token', 'env:NOPE_VAR:x'],
    ]) {
      const run = await serve(args, env);
      expect(run, args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr:
          "Error: Invalid value for --auth-token: Environment variable 'NOPE_VAR' for an auth token is empty\n",
      });
    }
  }, 90_000);

  it('refuses the same spec from CLOUDG_MCP_AUTH_TOKENS', async () => {
    const run = await serve([], { ...env, CLOUDG_MCP_AUTH_TOKENS: 'env:NOPE_VAR:analyst' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "Error: Invalid value for --auth-token: Environment variable 'NOPE_VAR' for an auth token is empty\n",
    );
  }, 90_000);
});
