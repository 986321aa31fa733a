import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RulesetError } from '../../src/compliance/ruleset-errors.js';
import { bundledRulesDir, loadRulesets, readRulesDir } from '../../src/compliance/ruleset-loader.js';

const dirs: string[] = [];
async function rulesDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cloudg-rules-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function problemsOf(dir: string) {
  try {
    await readRulesDir(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(RulesetError);
    return e as RulesetError;
  }
  throw new Error('expected a RulesetError');
}

describe('the shipped rulesets', () => {
  it('hold 28 frameworks and 4,271 controls', async () => {
    const catalog = await loadRulesets();
    expect(catalog.frameworks).toHaveLength(28);
    expect(catalog.frameworks.reduce((n, f) => n + f.controls, 0)).toBe(4271);
    expect(catalog.frameworks.find((f) => f.framework === 'CIS-AWS')).toEqual({
      framework: 'CIS-AWS',
      versions: ['3.0', '5.0'],
      providers: ['aws'],
      controls: 81,
      files: ['cis_aws_v3.yaml', 'cis_5.0_aws.yaml'],
    });
  });

  it('map equivalent checks of different scanners to one canonical check', async () => {
    const catalog = await loadRulesets();
    expect(catalog.canonicalCheck('prowler', 's3_bucket_default_encryption')).toBe(
      'aws-s3-default-encryption',
    );
    expect(catalog.canonicalCheck('Trivy', 'AVD-AWS-0088')).toBe('aws-s3-default-encryption');
    expect(catalog.canonicalCheck('checkov', 'CKV_AWS_999')).toBeUndefined();
  });

  it('are read once per directory', async () => {
    expect(await loadRulesets()).toBe(await loadRulesets(bundledRulesDir()));
  });
});

describe('a rules directory with problems', () => {
  it('names the file and path of every problem, in one error', async () => {
    const dir = await rulesDir({
      'good.yaml': 'framework: OK\ncontrols:\n  - id: A\n    title: fine\n    checks: [x]\n',
      'bad.yaml':
        'framework: ACME\ncontrols:\n  - id: A-1\n    pattern: ["x"]\n  - id: A-2\n    patterns: ["(?P<n>x)"]\n    severity: SEVERE\n',
      'sub/broken.yaml': 'framework: [unclosed\n',
      'check_equivalence.yaml': 'equivalences:\n  - id: e\n    checks: {prowler: nope}\n',
    });
    const error = await problemsOf(dir);
    expect(error.code).toBe('invalid_rulesets');
    expect(error.data.problems).toEqual([
      { file: 'bad.yaml', path: 'controls[0].pattern', message: 'unknown key' },
      {
        file: 'bad.yaml',
        path: 'controls[1].severity',
        message: 'expected one of CRITICAL, HIGH, MEDIUM, LOW, INFO',
      },
      { file: 'bad.yaml', path: 'controls[1].patterns[0]', message: 'not a valid regular expression' },
      { file: 'check_equivalence.yaml', path: 'equivalences[0].checks.prowler', message: expect.any(String) },
      {
        file: 'sub/broken.yaml',
        path: 'line 2',
        message: 'Flow sequence in block collection must be sufficiently indented and end with a ]',
      },
    ]);
    expect(error.message).toMatch(
      /^The compliance rulesets \(rulesets\.rules_dir\) have 5 problems: bad\.yaml controls\[0\]\.pattern: unknown key; /,
    );
  });

  it('refuses a directory that does not exist instead of mapping nothing', async () => {
    const error = await problemsOf(join(tmpdir(), 'cloudg-no-such-rules-dir'));
    expect(error.data.problems).toEqual([{ file: '.', path: '', message: 'the directory does not exist' }]);
  });

  it('takes the framework name from the file name when it is missing, and reports an empty file', async () => {
    const dir = await rulesDir({ 'acme.yaml': 'controls:\n  - id: X\n    checks: [c]\n' });
    const catalog = await readRulesDir(dir);
    expect(catalog.frameworkNames).toEqual(['acme']);
    const empty = await problemsOf(await rulesDir({ 'empty.yaml': '' }));
    expect(empty.data.problems).toEqual([{ file: 'empty.yaml', path: '', message: 'the file is empty' }]);
  });
});
