import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudgConfigError } from './errors.js';
import { loadCloudgConfig } from './load.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudg-config-'));
});

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function failure(path: string): CloudgConfigError {
  try {
    loadCloudgConfig(path);
  } catch (error) {
    expect(error).toBeInstanceOf(CloudgConfigError);
    return error as CloudgConfigError;
  }
  throw new Error('the config was accepted');
}

describe('loadCloudgConfig', () => {
  it('reads a config.yaml, resolving relative paths against the file directory', () => {
    const path = write(
      'config.yaml',
      [
        'providers: [aws, gcp]',
        'report:',
        '  output_dir: ./reports',
        'aws:',
        '  profile: security-audit',
        '  accounts: [123456789012]',
        '  regions: [eu-west-1, us-east-1]',
        'gcp:',
        '  projects: [prod-platform-1]',
        'ratelimit:',
        '  live_cooldown_seconds: 300',
        '  aws:',
        '    live_cooldown_seconds: 600',
        'rulesets:',
        '  rules_dir: rules',
        '',
      ].join('\n'),
    );
    const config = loadCloudgConfig(path);
    expect(config.providers).toEqual(['aws', 'gcp']);
    expect(config.report.output_dir).toBe(join(dir, 'reports'));
    expect(config.rulesets.rules_dir).toBe(join(dir, 'rules'));
    expect(config.aws).toMatchObject({
      profile: 'security-audit',
      accounts: ['123456789012'],
      regions: ['eu-west-1', 'us-east-1'],
    });
    expect(config.ratelimit).toMatchObject({
      live_cooldown_seconds: 300,
      aws: { live_cooldown_seconds: 600 },
    });
  });

  it('takes an empty file as the defaults', () => {
    expect(loadCloudgConfig(write('empty.yaml', '')).providers).toEqual(['aws']);
  });

  it('refuses a missing file', () => {
    const error = failure(join(dir, 'nope.yaml'));
    expect(error.code).toBe('config_not_found');
    expect(error.message).toBe('Cannot load the cloudg config: the file does not exist');
    expect(error.data).toEqual({
      problems: [{ path: '', message: 'the file does not exist' }],
      source: join(dir, 'nope.yaml'),
    });
  });

  it('refuses a directory and an unreadable file', () => {
    mkdirSync(join(dir, 'conf.d'));
    expect(failure(join(dir, 'conf.d')).code).toBe('config_unreadable');
    const locked = write('locked.yaml', 'providers: [aws]\n');
    chmodSync(locked, 0o000);
    // root reads anything; the check only means something for an ordinary user.
    if (process.getuid?.() !== 0) {
      const error = failure(locked);
      expect(error.code).toBe('config_unreadable');
      expect(error.message).toContain('permission denied');
    }
  });

  it('refuses text that is not YAML, giving the position without quoting the line', () => {
    const path = write('bad.yaml', 'aws:\n  secret_access_key: "wJalrXUtnFEMI\n  profile: [x\n');
    const error = failure(path);
    expect(error.code).toBe('config_parse_error');
    expect(error.message).toMatch(
      /^Cannot load the cloudg config: the file is not valid YAML \(line \d+, column \d+\)$/,
    );
    expect(JSON.stringify(error.data)).not.toContain('wJalrXUtnFEMI');
    expect(error.cause).toBeUndefined();
  });

  it('refuses a key given twice', () => {
    const error = failure(write('twice.yaml', 'providers: [aws]\nproviders: [gcp]\n'));
    expect(error.code).toBe('config_parse_error');
  });

  it('refuses an invalid document with every problem path and the file in data.source', () => {
    const path = write('invalid.yaml', 'aws:\n  regon: eu-west-1\nratelimit:\n  live_max_concurrent: -1\n');
    const error = failure(path);
    expect(error.code).toBe('invalid_config');
    expect(error.data.source).toBe(path);
    expect(error.data.problems.map((p) => p.path)).toEqual(['aws.regon', 'ratelimit.live_max_concurrent']);
    expect(error.message).toContain('aws.regon: unknown key');
  });
});
