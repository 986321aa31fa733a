import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Layer } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  parseCloudgConfig,
  sampleEstateDir,
  Workspace,
} from '../../src/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/scanners/', import.meta.url));

let dir: string;
let bin: string;
let ws: Workspace;
let layer: Layer<Workspace>;

/**
 * A stand-in scanner: a small script that records its arguments (one per line) and writes a real
 * scanner output copied from the fixtures where the real program would.
 */
async function standIn(name: string, body: string): Promise<void> {
  const path = join(bin, name);
  await writeFile(
    path,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${join(dir, `${name}.args`)}"\n${body}\n`,
  );
  await chmod(path, 0o755);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-scan-'));
  bin = join(dir, 'bin');
  await mkdir(bin);
  await mkdir(join(dir, 'iac'));
  await writeFile(join(dir, 'iac', 'main.tf'), 'resource "aws_s3_bucket" "b" {}\n');
  // prowler <provider> ... --output-directory D --output-filename F: writes D/F.ocsf.json, exits 3 (failed checks).
  await standIn(
    'prowler',
    `while [ $# -gt 0 ]; do case "$1" in --output-directory) d="$2";; --output-filename) f="$2";; esac; shift; done
mkdir -p "$d" && cp "${join(fixtures, 'prowler', 'v4-ocsf-one.ocsf.json')}" "$d/$f.ocsf.json"; exit 3`,
  );
  // checkov prints its JSON report and exits 1 when a check failed.
  await standIn('checkov', `cat "${join(fixtures, 'checkov', 'single-1-failed.json')}"; exit 1`);
  // trivy image ... --output FILE ... -- IMAGE
  await standIn(
    'trivy',
    `while [ $# -gt 0 ]; do case "$1" in --output) o="$2";; esac; shift; done
cp "${join(fixtures, 'trivy', 'schema2-image.json')}" "$o"`,
  );
  ws = new Workspace({ allowedRoots: [sampleEstateDir(), dir], outputDir: join(dir, 'out'), cwd: dir });
  await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  configureLive(ws, {
    preflight: {
      env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' },
      homeDir: dir,
      probe: async () => null,
    },
  });
  layer = createCatalogLayer({
    workspace: ws,
    registry: defaultRegistry({ live: { scannerEnv: { PATH: `${bin}:/usr/bin:/bin` } } }),
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('run_scanners', () => {
  it('hands the config credentials to a cloud scanner in its environment, never in a result', async () => {
    await standIn(
      'prowler',
      `printf '%s' "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" > "${join(dir, 'prowler.env')}"
while [ $# -gt 0 ]; do case "$1" in --output-directory) d="$2";; --output-filename) f="$2";; esac; shift; done
mkdir -p "$d" && cp "${join(fixtures, 'prowler', 'v4-ocsf-one.ocsf.json')}" "$d/$f.ocsf.json"; exit 3`,
    );
    const config = parseCloudgConfig({
      aws: { access_key_id: 'AKIACONFIGEXAMPLE000', secret_access_key: 'config-secret-value' },
    });
    const own = new Workspace({
      config,
      allowedRoots: [sampleEstateDir(), dir],
      outputDir: join(dir, 'out'),
      cwd: dir,
    });
    await own.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
    configureLive(own, { preflight: { env: {}, homeDir: dir, probe: async () => null } });
    const ownLayer = createCatalogLayer({
      workspace: own,
      registry: defaultRegistry({ live: { scannerEnv: { PATH: `${bin}:/usr/bin:/bin` } } }),
    });
    const result = await ownLayer.callTool('run_scanners', { scanners: ['prowler'] });
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    expect(await readFile(join(dir, 'prowler.env'), 'utf8')).toBe('AKIACONFIGEXAMPLE000:config-secret-value');
    expect(JSON.stringify(result.toWire())).not.toContain('config-secret-value');
    expect((await readFile(join(dir, 'prowler.args'), 'utf8')).includes('config-secret-value')).toBe(false);
  });

  it('reads what ScoutSuite writes under its report directory', async () => {
    // scout <provider> ... --report-dir D: the results file lands in D/scoutsuite-results/.
    await standIn(
      'scout',
      `while [ $# -gt 0 ]; do case "$1" in --report-dir) d="$2";; esac; shift; done
mkdir -p "$d/scoutsuite-results" && cp "${join(fixtures, 'scoutsuite', 'scoutsuite_results_aws-trimmed.js')}" "$d/scoutsuite-results/scoutsuite_results_aws-123456789012.js"`,
    );
    const result = await layer.callTool('run_scanners', { scanners: ['scoutsuite'], dataset: 'sample' });
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    expect((result.structured as { errors: string[] }).errors).toEqual([]);
    expect(ws.get('sample').findings.some((f) => f.source_tool === 'scoutsuite')).toBe(true);
  });

  it('runs the installed scanners as processes, parses their output and adds reachability findings', async () => {
    const progress: [number, number | undefined, string | undefined][] = [];
    const result = await layer.callTool(
      'run_scanners',
      {
        scanners: ['prowler', 'scoutsuite', 'checkov', 'trivy'],
        iac_dir: join(dir, 'iac'),
        images: ['nginx:1.25; rm -rf /'],
        dataset: 'sample',
      },
      { onProgress: (p, t, m) => void progress.push([p, t, m]) },
    );
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    const s = result.structured as Record<string, unknown>;
    expect(s).toMatchObject({
      dataset: 'sample',
      scanners: ['prowler', 'scoutsuite', 'checkov', 'trivy'],
      findings_before: 12,
      output_dir: join(dir, 'out', 'scans'),
    });
    // ScoutSuite's `scout` is not installed: reported, not a crash.
    expect(s.errors).toEqual(["scoutsuite: not installed (scout is not on the server's PATH)"]);
    const findings = ws.get('sample').findings;
    const tools = new Set(findings.map((f) => f.source_tool));
    for (const tool of ['checkov', 'cloudg-reachability', 'prowler', 'trivy']) expect(tools).toContain(tool);
    expect(s.findings_after).toBe(findings.length);
    expect(s.new_findings).toBe(findings.length - 12);
    // The image reached trivy as one argument after `--`, never through a shell.
    const trivyArgs = (await readFile(join(dir, 'trivy.args'), 'utf8')).trim().split('\n');
    expect(trivyArgs.slice(-2)).toEqual(['--', 'nginx:1.25; rm -rf /']);
    expect((await readFile(join(dir, 'prowler.args'), 'utf8')).split('\n')[0]).toBe('aws');
    expect(progress).toEqual([
      [2, 3, 'phase: scanning'],
      [2.01, 3, 'running prowler aws'],
      [2.02, 3, 'running checkov'],
      [2.03, 3, 'running trivy image 1'],
      [3, 3, 'done'],
    ]);
  });

  it('refuses an image name that starts with "-" before anything runs', async () => {
    const result = await layer.callTool('run_scanners', {
      scanners: ['trivy'],
      images: ['--config=/etc/passwd'],
    });
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe(-32602);
    expect(result.meta['cloudg/error_data']).toEqual({ refused: ['--config=/etc/passwd'] });
    await expect(readFile(join(dir, 'trivy.args'), 'utf8')).rejects.toThrow();
  });

  it('refuses unknown scanners and an iac_dir outside the allowed roots', async () => {
    const unknown = await layer.callTool('run_scanners', { scanners: ['nmap'] });
    expect(unknown.meta['cloudg/error_code']).toBe(-32602);
    expect((unknown.content[0] as { text: string }).text).toBe(
      'Unknown scanner(s). Use: prowler, scoutsuite, checkov, trivy, iam',
    );
    const outside = await layer.callTool('run_scanners', { iac_dir: '/etc' });
    expect(outside.meta['cloudg/error_code']).toBe(-31001);
  });

  it('a missing scanner is an error entry; the offline run needs no credentials and sets no cooldown', async () => {
    configureLive(ws, { preflight: { env: {} } });
    const result = await layer.callTool('run_scanners', { scanners: ['checkov'], iac_dir: join(dir, 'iac') });
    expect(result.isError).toBe(false);
    const again = await layer.callTool('run_scanners', { scanners: ['checkov'], iac_dir: join(dir, 'iac') });
    expect(again.isError).toBe(false);
    const none = await layer.callTool('run_scanners', { scanners: ['trivy'], images: ['alpine'] });
    expect(none.isError).toBe(false);
    const noBin = createCatalogLayer({
      workspace: ws,
      registry: defaultRegistry({ live: { scannerEnv: { PATH: '' } } }),
    });
    const missing = await noBin.callTool('run_scanners', { scanners: ['trivy'], images: ['alpine'] });
    expect((missing.structured as { errors: string[] }).errors).toEqual([
      "trivy: not installed (trivy is not on the server's PATH)",
    ]);
  });

  it("iam lints the dataset's collected IAM policy documents: no process, no credentials", async () => {
    configureLive(ws, { preflight: { env: {} } });
    const admin = {
      id: 'pol-admin',
      arn: 'arn:aws:iam::123456789012:policy/admin-all',
      name: 'admin-all',
      asset_type: 'IAM_POLICY',
      provider: 'AWS',
      region: 'global',
      account_id: '123456789012',
      metadata: {
        policy_document: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
        },
      },
    };
    await writeFile(join(dir, 'iam-map.json'), JSON.stringify({ assets: [admin], edges: [] }));
    await ws.load(join(dir, 'iam-map.json'), { name: 'iam' });
    const result = await layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'iam' });
    expect(result.isError).toBe(false);
    const structured = result.structured as { new_findings: number; errors: string[]; scanners: string[] };
    expect(structured).toMatchObject({ scanners: ['iam'], new_findings: 1, errors: [] });
    const found = ws.get('iam').findings.filter((f) => f.source_tool === 'cloudg-iam');
    expect(found.map((f) => [f.title, f.severity, f.resource_id])).toEqual([
      ['IAM policy allows every action: admin-all', 'HIGH', 'pol-admin'],
    ]);
    // A second scan finds the same finding again: nothing new.
    const again = await layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'iam' });
    expect((again.structured as { new_findings: number }).new_findings).toBe(0);
    // The sample estate's roles carry no policy documents: said, not silently empty.
    const sample = await layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'sample' });
    expect((sample.structured as { errors: string[] }).errors).toEqual([
      'iam: no IAM policy documents in the dataset to check',
    ]);
  });
});
