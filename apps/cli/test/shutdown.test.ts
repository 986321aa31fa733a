/**
 * MCP.md 5.3: a real `cloudg-mcp serve` process stopped by SIGINT saves the pseudonym vault to the
 * policy's `vault.path` and exits 0. The signal is sent twice, as a terminal's Ctrl-C and a
 * relaunching launcher both deliver it.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('serve shutdown', () => {
  it('SIGINT stops the server, saves the vault with mode 0600 and exits 0', async () => {
    const vault = join(mkdtempSync(join(tmpdir(), 'cloudg-shutdown-')), 'vault.json');
    const policy = JSON.stringify({ extends: 'standard', vault: { path: vault } });
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--transport', 'http', '--port', '0', '--policy', policy],
      {
        env: { ...process.env, CLOUDG_MCP_VAULT_KEY: 'a'.repeat(32) },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited early with ${code}: ${stderr}`)));
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(existsSync(vault)).toBe(true);
    expect(statSync(vault).mode & 0o777).toBe(0o600);
  }, 30_000);
});
