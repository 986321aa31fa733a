/** @dist it packs dist/ and installs the tarball. */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'cloudg-privacy-pack-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Splits the example's stdout into the JSON documents it printed. */
function documents(stdout: string): unknown[] {
  const docs: unknown[] = [];
  let buf = '';
  for (const line of stdout.split('\n')) {
    buf += `${line}\n`;
    try {
      docs.push(JSON.parse(buf));
      buf = '';
    } catch {
      // keep collecting lines of a multi-line document
    }
  }
  return docs;
}

describe('the packed package', () => {
  it('installs alone into an empty project and runs the README example with plain node', () => {
    const run = (cmd: string, args: string[], cwd: string) =>
      execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

    // dist/ is what `pnpm test:dist` had turbo build before this run; nothing here builds.
    expect(existsSync(join(pkgDir, 'dist/index.js')), 'dist/ is missing: run `pnpm test:dist`').toBe(true);
    const packDir = join(work, 'pack');
    run('pnpm', ['pack', '--pack-destination', packDir], pkgDir);
    const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const app = join(work, 'app');
    run('mkdir', ['-p', app], work);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packDir, tarball!)], app);

    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules/@cloudg/privacy/package.json'), 'utf8'),
    );
    expect(installed.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@cloudg']);

    copyFileSync(join(pkgDir, 'examples/redact.examples.mjs'), join(app, 'redact.examples.mjs'));
    const out = run(process.execPath, ['redact.examples.mjs'], app);
    const [shown, report, restored] = documents(out) as [
      Record<string, unknown> & { metadata: Record<string, string> },
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(shown.metadata.db_password).toBe('[REDACTED:sensitive_field]');
    expect(shown.metadata.AccessKeyId).toBe('AKIA************MPLE');
    expect(shown.account_id).not.toBe('123456789012');
    expect(report).toMatchObject({ redacted: { sensitive_field: 1 }, masked: { aws_access_key_id: 1 } });
    expect(restored).toMatchObject({
      name: 'web-1',
      account_id: '123456789012',
      arn: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890',
      private_ip: '10.0.1.5',
      tags: { Owner: 'alice@example.com', env: 'prod' },
    });
  }, 240_000);
});
