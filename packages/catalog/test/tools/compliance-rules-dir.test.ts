import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledRulesDir } from '../../src/compliance/ruleset-loader.js';
import { parseCloudgConfig } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { complianceLayer } from './compliance-support.js';
import { call, callError, estate } from './support.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-rules-dir-'));
  await cp(bundledRulesDir(), join(dir, 'rules'), { recursive: true });
  await writeFile(
    join(dir, 'rules', 'acme_baseline.yaml'),
    [
      'framework: ACME-BASELINE',
      'version: "2026.1"',
      'controls:',
      '  - id: ACME-NET-01',
      '    title: No administration port is open to the internet',
      '    severity: CRITICAL',
      '    patterns: ["(ssh|rdp).*(0\\\\.0\\\\.0\\\\.0/0|internet)"]',
      '  - id: ACME-S3-01',
      '    title: Buckets encrypt data at rest',
      '    checks: [s3_bucket_default_encryption, CKV_AWS_19]',
      '',
    ].join('\n'),
  );
  await cp(join(dir, 'rules'), join(dir, 'broken'), { recursive: true });
  await writeFile(
    join(dir, 'broken', 'draft.yaml'),
    'framework: DRAFT\ncontrols:\n  - id: D-1\n    pattern: [x]\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function layerWith(rulesDir: string) {
  const config = parseCloudgConfig({ rulesets: { rules_dir: rulesDir } }, { baseDir: dir });
  return complianceLayer({ workspace: workspaceAt(estate, { config }) });
}

describe('rulesets.rules_dir', () => {
  it('replaces the shipped rulesets with the configured directory (relative to the config)', async () => {
    const { layer } = await layerWith('rules');
    const out = await call(layer, 'list_frameworks');
    expect(out.total).toBe(29);
    expect(out.items).toContainEqual({
      framework: 'ACME-BASELINE',
      versions: ['2026.1'],
      providers: [],
      controls: 2,
      files: ['acme_baseline.yaml'],
    });
    expect(await call(layer, 'list_controls', { framework: 'acme', source: 'ruleset' })).toMatchObject({
      frameworks: ['ACME-BASELINE'],
      total: 2,
      items: [
        { control_id: 'ACME-NET-01', severity: 'CRITICAL', checks: 0 },
        { control_id: 'ACME-S3-01', title: 'Buckets encrypt data at rest', severity: null, checks: 2 },
      ],
    });
  });

  it('fails the compliance tools with every problem named by file and path', async () => {
    const { layer } = await layerWith('broken');
    const error = await callError(layer, 'list_frameworks');
    expect(error.code).toBe('invalid_rulesets');
    expect(error.text).toBe(
      'The compliance rulesets (rulesets.rules_dir) have 1 problem: draft.yaml controls[0].pattern: unknown key',
    );
    expect(error.data).toEqual({
      rules_dir: join(dir, 'broken'),
      problems: [{ file: 'draft.yaml', path: 'controls[0].pattern', message: 'unknown key' }],
    });
    expect((await callError(layer, 'normalise_findings')).code).toBe('invalid_rulesets');
  });
});
