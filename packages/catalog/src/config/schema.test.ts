import { homedir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CloudgConfigError } from './errors.js';
import { defaultCloudgConfig, parseCloudgConfig } from './load.js';
import { liveCooldownSeconds } from './ratelimit.js';
import { SecretValue } from './secret.js';

function problemsOf(value: unknown): { path: string; message: string }[] {
  try {
    parseCloudgConfig(value, { baseDir: '/etc/cloudg' });
  } catch (error) {
    expect(error).toBeInstanceOf(CloudgConfigError);
    return (error as CloudgConfigError).data.problems;
  }
  throw new Error('the config was accepted');
}

describe('defaults', () => {
  it('fills every documented default when nothing is configured', () => {
    expect(defaultCloudgConfig()).toEqual({
      providers: ['aws'],
      report: { output_dir: null },
      aws: { accounts: [], regions: [] },
      azure: { subscriptions: [] },
      gcp: { projects: [], regions: [] },
      ratelimit: {
        live_cooldown_seconds: 120,
        live_max_concurrent: 1,
        live_max_concurrent_total: 2,
        live_caller_max_operations: 0,
        live_caller_window_seconds: 3600,
        live_operation_timeout_seconds: 3600,
        aws: {},
        azure: {},
        gcp: {},
      },
      rulesets: { rules_dir: null },
      state: { dir: null },
    });
  });

  it('treats an empty document and empty YAML sections (null) as all defaults', () => {
    expect(parseCloudgConfig(null)).toEqual(defaultCloudgConfig());
    expect(parseCloudgConfig({ aws: null, ratelimit: null, report: null })).toEqual(defaultCloudgConfig());
  });

  it('keeps explicit settings and fills the rest of their section', () => {
    const config = parseCloudgConfig({
      ratelimit: { live_cooldown_seconds: 30, gcp: { live_cooldown_seconds: 600 } },
    });
    expect(config.ratelimit).toMatchObject({ live_cooldown_seconds: 30, live_max_concurrent: 1 });
    expect(liveCooldownSeconds(config, 'gcp')).toBe(600);
    expect(liveCooldownSeconds(config, 'aws')).toBe(30);
    expect(liveCooldownSeconds(defaultCloudgConfig(), 'azure')).toBe(120);
  });

  it('returns a frozen config, so no tool can change the server settings in place', () => {
    const config = parseCloudgConfig({ providers: ['gcp'] });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.providers)).toBe(true);
    expect(Object.isFrozen(config.ratelimit.aws)).toBe(true);
  });
});

describe('refusing a bad document with the path of every problem', () => {
  it('refuses unknown keys at every level', () => {
    expect(
      problemsOf({
        provider: ['aws'],
        aws: { regon: 'eu-west-1' },
        ratelimit: { gcp: { cooldown: 5 } },
        report: { output: 'x' },
      }),
    ).toEqual(
      expect.arrayContaining([
        { path: 'provider', message: 'unknown key' },
        { path: 'aws.regon', message: 'unknown key' },
        { path: 'ratelimit.gcp.cooldown', message: 'unknown key' },
        { path: 'report.output', message: 'unknown key' },
      ]),
    );
  });

  it('names each wrong value by its path, with list indexes', () => {
    const problems = problemsOf({
      providers: ['aws', 'oracle'],
      aws: { accounts: ['123456789012', 'prod'], role_arn: 'admin' },
      azure: { subscriptions: ['not-a-guid'] },
      ratelimit: { live_max_concurrent: 0, live_cooldown_seconds: 'soon' },
      report: 'reports',
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      'aws.accounts[1]',
      'aws.role_arn',
      'azure.subscriptions[0]',
      'providers[1]',
      'ratelimit.live_cooldown_seconds',
      'ratelimit.live_max_concurrent',
      'report',
    ]);
    expect(problems).toContainEqual({ path: 'providers[1]', message: 'expected one of aws, azure, gcp' });
    expect(problems).toContainEqual({ path: 'report', message: 'expected a mapping' });
    expect(problems).toContainEqual({ path: 'ratelimit.live_max_concurrent', message: 'must be at least 1' });
    expect(problems).toContainEqual({
      path: 'ratelimit.live_cooldown_seconds',
      message: 'expected a number of seconds',
    });
  });

  it('lists the problems in the message without repeating any value', () => {
    let error: CloudgConfigError | undefined;
    try {
      parseCloudgConfig({ providers: ['azure-secret-tenant'], aws: { profile: 42, regon: 'x' } });
    } catch (e) {
      error = e as CloudgConfigError;
    }
    expect(error?.code).toBe('invalid_config');
    expect(error?.message).toMatch(/^Invalid cloudg config: /);
    expect(error?.message).toContain('providers[0]');
    expect(error?.message).toContain('aws.profile');
    expect(error?.message).toContain('aws.regon: unknown key');
    expect(error?.message).not.toContain('azure-secret-tenant');
    expect(error?.message).not.toContain('42');
  });

  it('refuses a document that is not a mapping, an empty provider list, and half a key pair', () => {
    expect(problemsOf(['aws'])).toEqual([{ path: '', message: 'the config must be a mapping' }]);
    expect(problemsOf({ providers: [] })).toEqual([
      { path: 'providers', message: 'name at least one provider' },
    ]);
    expect(problemsOf({ aws: { access_key_id: 'AKIAABCDEFGHIJKLMNOP' } })).toEqual([
      { path: 'aws.secret_access_key', message: 'required with access_key_id' },
    ]);
    expect(problemsOf({ azure: { client_secret: 'x' } }).map((p) => p.path)).toEqual([
      'azure.client_id',
      'azure.tenant_id',
    ]);
  });
});

describe('values', () => {
  it('accepts an unquoted account id that YAML read as a number, restoring its leading zeros', () => {
    const config = parseCloudgConfig({ aws: { accounts: [12345678901, '210987654321', '210987654321'] } });
    expect(config.aws.accounts).toEqual(['012345678901', '210987654321']);
    expect(parseCloudgConfig({ gcp: { organization_id: 4242 } }).gcp.organization_id).toBe('4242');
  });

  it('drops repeated providers, keeping their order', () => {
    expect(parseCloudgConfig({ providers: ['gcp', 'aws', 'gcp'] }).providers).toEqual(['gcp', 'aws']);
  });

  it('resolves relative paths against baseDir and ~ against the home directory', () => {
    const config = parseCloudgConfig(
      {
        report: { output_dir: 'out/reports' },
        rulesets: { rules_dir: '/opt/rules' },
        state: { dir: 'state' },
        aws: { role_arn: 'arn:aws:iam::123456789012:role/reader', web_identity_token_file: 'token' },
        gcp: { credentials_file: '~/keys/cloudg.json' },
      },
      { baseDir: '/etc/cloudg' },
    );
    expect(config.report.output_dir).toBe('/etc/cloudg/out/reports');
    expect(config.rulesets.rules_dir).toBe('/opt/rules');
    expect(config.state.dir).toBe('/etc/cloudg/state');
    expect(config.aws.web_identity_token_file).toBe('/etc/cloudg/token');
    expect(config.gcp.credentials_file).toBe(join(homedir(), 'keys', 'cloudg.json'));
  });
});

describe('secrets', () => {
  const config = parseCloudgConfig({
    aws: {
      access_key_id: 'AKIAABCDEFGHIJKLMNOP',
      secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      session_token: 'FQoGZXIvYXdzEXAMPLETOKEN',
    },
    azure: {
      tenant_id: 'contoso.onmicrosoft.com',
      client_id: '00000000-0000-0000-0000-000000000001',
      client_secret: 'azure-client-secret-value',
    },
  });

  it('hands the credential to code that asks for it', () => {
    expect(config.aws.secret_access_key).toBeInstanceOf(SecretValue);
    expect(config.aws.secret_access_key?.reveal()).toBe('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
    expect(config.azure.client_secret?.reveal()).toBe('azure-client-secret-value');
  });

  it('never shows it when the config is serialised, printed or inspected', () => {
    for (const text of [
      JSON.stringify(config),
      String(config.aws.session_token),
      inspect(config, { depth: 9 }),
    ]) {
      expect(text).not.toContain('wJalrXUtnFEMI');
      expect(text).not.toContain('FQoGZXIvYXdz');
      expect(text).not.toContain('azure-client-secret-value');
    }
    expect(JSON.parse(JSON.stringify(config)).aws.secret_access_key).toBe('**********');
  });

  it('does not repeat a secret in the error when its section is wrong', () => {
    let message = '';
    try {
      parseCloudgConfig({ aws: { secret_access_key: 'wJalrXUtnFEMI-in-error', profile: '' } });
    } catch (error) {
      message = `${(error as Error).message} ${JSON.stringify((error as CloudgConfigError).data)}`;
    }
    expect(message).toContain('aws.access_key_id: required with secret_access_key');
    expect(message).not.toContain('wJalrXUtnFEMI');
  });

  it('parses an already parsed config again, secrets included', () => {
    const once = parseCloudgConfig({
      aws: { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'abc/def' },
    });
    const twice = parseCloudgConfig(once);
    expect(twice.aws.secret_access_key?.reveal()).toBe('abc/def');
    expect(JSON.stringify(twice)).not.toContain('abc/def');
  });
});
