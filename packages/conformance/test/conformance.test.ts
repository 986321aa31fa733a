/**
 * The MCP conformance suite against the native HTTP server serving the conformance fixture, once
 * per protocol revision, with an expected-failures file per revision. The suite, and the Node 22
 * it runs on, are installed with the workspace: nothing is fetched while the tests run. Set
 * CLOUDG_SKIP_CONFORMANCE=1 to skip.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningHttpServer, serveHttp } from '@cloudg/transports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConformanceLayer } from '../src/fixture.js';

const skip = process.env.CLOUDG_SKIP_CONFORMANCE === '1';
const require = createRequire(import.meta.url);
const SUITE_MANIFEST = require.resolve('@modelcontextprotocol/conformance/package.json');
/** The suite's command line (its `bin`), run with `node22()`. */
const SUITE_BIN = join(dirname(SUITE_MANIFEST), 'dist/index.js');

/**
 * A Node.js 22 or newer to run the suite with (it imports `globSync` from `fs`, new in 22): this
 * process's own when it is new enough, else the binary of the platform package installed beside
 * the suite (`packageExtensions` in pnpm-workspace.yaml). The server under test stays on the
 * workspace's Node.
 */
function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const name = `node-${process.platform}-${process.arch}`;
  try {
    const manifest = createRequire(SUITE_MANIFEST).resolve(`${name}/package.json`);
    const { bin } = require(manifest) as { bin: { node: string } };
    return join(dirname(manifest), bin.node);
  } catch {
    throw new Error(
      `The conformance suite needs Node.js 22 and no ${name} package came with it for this platform: ` +
        'run the tests with Node.js 22 or newer, or set CLOUDG_SKIP_CONFORMANCE=1.',
    );
  }
}

function runSuite(url: string, revision: string): Promise<{ code: number | null; output: string }> {
  const baseline = fileURLToPath(new URL(`../expected-failures.${revision}.yaml`, import.meta.url));
  const args = [
    SUITE_BIN,
    'server',
    '--url',
    url,
    '--requirements',
    revision,
    '--expected-failures',
    baseline,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(node22(), args, { env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(skip)('MCP conformance suite', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await serveHttp(buildConformanceLayer(), { port: 0 });
  });
  afterAll(() => server.close());

  it.each(['2025-11-25', '2026-07-28'])(
    'passes the %s requirements apart from the documented expected failures',
    async (revision) => {
      const { code, output } = await runSuite(server.url, revision);
      const summary = output.slice(output.indexOf('=== SUMMARY ==='));
      expect(summary, summary).toContain('Baseline check passed');
      expect(code).toBe(0);
    },
    120_000,
  );
});
