import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EngineHooks, Workspace } from '../../src/index.js';
import { runScans } from '../../src/live/scanners/run-scans.js';

const hooks: EngineHooks = { phase: () => {}, error: () => {}, progress: () => {}, throttle: () => {} };

let dir: string;
let ws: Workspace;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-scans-'));
  await mkdir(join(dir, 'bin'));
  await mkdir(join(dir, 'iac'));
  // A Checkov that hangs, then leaves a mark if it was never stopped.
  const path = join(dir, 'bin', 'checkov');
  await writeFile(path, `#!/bin/sh\nsleep 2\ntouch "${join(dir, 'finished')}"\n`);
  await chmod(path, 0o755);
  ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const input = () => ({
  providers: [],
  iacDir: join(dir, 'iac'),
  images: [],
  outDir: join(dir, 'out', 'scans'),
});
const env = () => ({ PATH: `${join(dir, 'bin')}:/usr/bin:/bin` });

describe('runScans', () => {
  it('stops a scanner that runs past its time limit and reports it in errors', async () => {
    const signal = new AbortController().signal;
    // Checkov's limit is 1800 s; scaled down to 90 ms here.
    const outcome = await runScans(ws, ['checkov'], input(), {
      env: env(),
      signal,
      hooks,
      timeoutScale: 0.00005,
    });
    expect(outcome.errors).toEqual(['checkov: stopped after 1800s without finishing']);
    await new Promise((r) => setTimeout(r, 2500));
    await expect(readFile(join(dir, 'finished'))).rejects.toThrow();
  });

  it('a cancelled call kills the running scanner and rejects', async () => {
    const controller = new AbortController();
    const pending = runScans(ws, ['checkov'], input(), { env: env(), signal: controller.signal, hooks });
    setTimeout(() => controller.abort(new Error('cancelled')), 100);
    await expect(pending).rejects.toThrow('cancelled');
    await new Promise((r) => setTimeout(r, 2500));
    await expect(readFile(join(dir, 'finished'))).rejects.toThrow();
  });
});
