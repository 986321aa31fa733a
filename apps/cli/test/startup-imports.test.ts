/**
 * What the built command loads before it answers: `--help` and a plain `config` must not load the
 * server, the catalog or the policy engine (most of the start-up time; bench/startup.ts measures
 * it), and `config --dataset` loads the server, which parses the value. A resolve hook records
 * every module a fresh process imports.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("IMPORT " + r.url + "\\\\n"); return r; }'
));`)}`;

function importsOf(args: string[]): { status: number | null; packages: Set<string> } {
  const run = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: '' },
  });
  const packages = new Set<string>();
  for (const line of run.stderr.split('\n')) {
    const url = line.startsWith('IMPORT ') ? line.slice(7) : '';
    const match = /\/(packages|apps)\/([^/]+)\//.exec(url);
    if (match) packages.add(`@cloudg/${match[2]}`);
  }
  return { status: run.status, packages };
}

const HEAVY = ['@cloudg/server', '@cloudg/catalog', '@cloudg/policy', '@cloudg/transports'];

describe('start-up imports of the built cloudg-mcp', () => {
  it('--help loads nothing of the workspace but the CLI', () => {
    const { status, packages } = importsOf(['--help']);
    expect(status).toBe(0);
    expect([...packages]).toEqual(['@cloudg/cli']);
  });

  it('config loads neither the server, the catalog nor the policy engine', () => {
    const { status, packages } = importsOf(['config', '--client', 'cursor']);
    expect(status).toBe(0);
    for (const name of HEAVY) expect(packages).not.toContain(name);
  });

  it('config --dataset loads the server, which checks the value', () => {
    const { status, packages } = importsOf(['config', '--dataset', `prod=${BIN}`]);
    expect(status).toBe(0);
    expect(packages).toContain('@cloudg/server');
  });
});
