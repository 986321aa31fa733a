/** MCP.md 5.1: --timeout and --audit-log / CLOUDG_MCP_AUDIT_LOG, through the whole layer. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const SLOW = `${fileURLToPath(new URL('./fixtures/slow-registry.ts', import.meta.url))}:defaultRegistry`;

/** `call nap` on the slow fixture registry with a default timeout. */
const nap = (timeout: string, seconds: number, ...extra: string[]) =>
  cli([
    'call',
    'nap',
    '--registry',
    SLOW,
    '--timeout',
    timeout,
    '--args',
    JSON.stringify({ seconds }),
    ...extra,
  ]);

describe('--timeout (MCP.md 5.1)', () => {
  it('ends a call that outlives the default timeout with the timeout error, exit 1', async () => {
    const run = await nap('0.2', 5, '--raw');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      content: [{ type: 'text', text: 'Tool nap timed out' }],
      isError: true,
      _meta: { 'cloudg/error_code': 'timeout' },
    });
  });

  it('0 disables the default, and a call within it succeeds', async () => {
    const run = await nap('0', 0.3);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ slept: 0.3 });
  });

  it('refuses a timeout that is not a number of seconds', async () => {
    const run = await cli(['call', 'nap', '--registry', SLOW, '--timeout', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Invalid value for --timeout: 'soon' is not a number of seconds");
  });
});

describe('--audit-log (MCP.md 5.1, 14.2)', () => {
  it('appends one JSONL line per call, mode 0600, argument values hashed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
    const file = join(dir, 'audit.jsonl');
    const run = await cli([
      'call',
      'find_assets',
      '--audit-log',
      file,
      '--principal-id',
      'alice',
      '--role',
      'analyst',
      '--args',
      '{"query": "bastion", "limit": 2}',
    ]);
    expect(run.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(record).toMatchObject({
      event: 'mcp.call',
      kind: 'tool',
      name: 'find_assets',
      outcome: 'ok',
      principal: { id: 'alice', roles: ['analyst'] },
      argument_keys: ['limit', 'query'],
    });
    // The value is never written, only its keyed hash.
    expect(lines[0]).not.toContain('bastion');
    expect(Object.keys(record.argument_hashes as object)).toEqual(['limit', 'query']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads CLOUDG_MCP_AUDIT_LOG when --audit-log is absent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
    const run = await cli(['read', 'cloudg://workspace'], {
      env: { CLOUDG_MCP_AUDIT_LOG: 'from-env.jsonl' },
      cwd: dir,
    });
    expect(run.code).toBe(0);
    const record = JSON.parse(readFileSync(join(dir, 'from-env.jsonl'), 'utf8').trimEnd()) as Record<
      string,
      unknown
    >;
    expect(record).toMatchObject({ kind: 'resource', name: 'cloudg://workspace', outcome: 'ok' });
  });
});
