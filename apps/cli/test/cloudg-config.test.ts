import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

let dir: string;
beforeEach(() => {
  // The working directory and, beside it, the config's directory with the report directory
  // outside the working directory, so the second allowed root is visible.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'cloudg-cli-config-')));
  mkdirSync(join(dir, 'work'));
  mkdirSync(join(dir, 'etc'));
  writeFileSync(
    join(dir, 'etc', 'config.yaml'),
    [
      'providers: [aws, azure]',
      'report:',
      '  output_dir: ../reports',
      'aws:',
      '  access_key_id: AKIAABCDEFGHIJKLMNOP',
      `  secret_access_key: ${SECRET}`,
      'azure:',
      '  tenant_id: contoso.onmicrosoft.com',
      "  client_id: '00000000-0000-0000-0000-000000000001'",
      '  client_secret: azure-client-secret-value',
      '',
    ].join('\n'),
  );
});

const opts = () => ({ cwd: join(dir, 'work') });

describe('-c / --config (MCP.md 5.1)', () => {
  it('call workspace_status shows the configured providers, report directory and allowed roots', async () => {
    const run = await cli(
      ['call', 'workspace_status', '-c', '../etc/config.yaml', '--no-sample-estate'],
      opts(),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      providers_configured: ['aws', 'azure'],
      output_dir: join(dir, 'reports'),
      allowed_roots: [join(dir, 'work'), join(dir, 'reports')],
    });
  });

  it('without a config, the default applies: aws and <cwd>/reports', async () => {
    const run = await cli(['call', 'workspace_status', '--no-sample-estate'], opts());
    expect(JSON.parse(run.stdout)).toMatchObject({
      providers_configured: ['aws'],
      output_dir: join(dir, 'work', 'reports'),
      allowed_roots: [join(dir, 'work')],
    });
  });

  it('never prints a credential from the config', async () => {
    const run = await cli(
      ['call', 'workspace_status', '--config', join(dir, 'etc', 'config.yaml'), '--raw'],
      opts(),
    );
    expect(run.code).toBe(0);
    const read = await cli(['read', 'cloudg://workspace', '-c', '../etc/config.yaml'], opts());
    expect(JSON.parse(read.stdout)).toMatchObject({ providers_configured: ['aws', 'azure'] });
    for (const text of [run.stdout, run.stderr, read.stdout, read.stderr]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('azure-client-secret-value');
    }
  });

  it('is accepted by tools, resources and prompts', async () => {
    for (const command of ['tools', 'resources', 'prompts']) {
      const run = await cli([command, '--json', '-c', '../etc/config.yaml'], opts());
      expect(run.code).toBe(0);
    }
  });

  it('refuses an invalid file with status 2, naming the path of each problem and no value', async () => {
    writeFileSync(
      join(dir, 'etc', 'bad.yaml'),
      `aws:\n  regon: eu-west-1\n  secret_access_key: ${SECRET}\nratelimit:\n  live_max_concurrent: 0\n`,
    );
    for (const command of [
      ['call', 'workspace_status'],
      ['read', 'cloudg://workspace'],
      ['tools'],
      ['resources'],
      ['prompts'],
      ['serve'],
    ]) {
      const run = await cli([...command, '-c', '../etc/bad.yaml'], opts());
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^Error: Invalid value for --config: /);
      expect(run.stderr).toContain('aws.regon: unknown key');
      expect(run.stderr).toContain('aws.access_key_id: required with secret_access_key');
      expect(run.stderr).toContain('ratelimit.live_max_concurrent: ');
      expect(run.stderr).not.toContain(SECRET);
    }
  });

  it('refuses a missing file and text that is not YAML with status 2', async () => {
    const missing = await cli(['call', 'workspace_status', '-c', 'nope.yaml'], opts());
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toBe('Error: Invalid value for --config: the file does not exist\n');
    writeFileSync(join(dir, 'etc', 'broken.yaml'), 'providers: [aws\n');
    const broken = await cli(['serve', '--config', '../etc/broken.yaml'], opts());
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^Error: Invalid value for --config: the file is not valid YAML \(line \d+, column \d+\)\n$/,
    );
  });
});

describe('the state directory of the config', () => {
  it('refuses a damaged suppressions file with status 2, naming the file', async () => {
    mkdirSync(join(dir, 'state'));
    writeFileSync(join(dir, 'state', 'suppressions.json'), '{"format": "something else"');
    writeFileSync(join(dir, 'etc', 'state.yaml'), 'state:\n  dir: ../state\n');
    for (const argv of [
      ['call', 'workspace_status', '-c', '../etc/state.yaml', '--no-sample-estate'],
      ['serve', '-c', '../etc/state.yaml', '--transport', 'http', '--port', '0'],
    ]) {
      const run = await cli(argv, opts());
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `Error: ${join(dir, 'state', 'suppressions.json')} is not a cloudg suppressions file (version 1); fix or move it.\n`,
      );
    }
  });
});

describe('config -c bakes the config into the launch command', () => {
  it('adds --config with an absolute path', async () => {
    const run = await cli(['config', '--command', 'cloudg-mcp', '-c', '../etc/config.yaml'], opts());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: {
        cloudg: { command: 'cloudg-mcp', args: ['serve', '--config', join(dir, 'etc', 'config.yaml')] },
      },
    });
  });

  it('refuses a config the server would refuse', async () => {
    const run = await cli(['config', '--command', 'cloudg-mcp', '-c', 'nope.yaml'], opts());
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('Error: Invalid value for --config: the file does not exist\n');
  });
});

describe('docs/cli.md', () => {
  const doc = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'cli.md'),
    'utf8',
  ).split('### The config file')[1];

  it('has an example config.yaml the CLI accepts, with the providers it describes', async () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc ?? '')?.[1];
    expect(yaml).toBeDefined();
    writeFileSync(join(dir, 'work', 'config.yaml'), yaml ?? '');
    const run = await cli(['call', 'workspace_status', '-c', 'config.yaml', '--no-sample-estate'], opts());
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({
      providers_configured: ['aws', 'gcp'],
      output_dir: join(dir, 'work', 'reports'),
      allowed_roots: [join(dir, 'work')],
    });
  });

  it('shows the error a bad config really prints', async () => {
    const shown = /\$ cloudg-mcp serve -c config.yaml\n(Error: .*)\n/.exec(doc ?? '')?.[1];
    expect(shown).toBeDefined();
    writeFileSync(
      join(dir, 'work', 'config.yaml'),
      'aws:\n  regon: eu-west-1\nratelimit:\n  live_max_concurrent: 0\n',
    );
    const run = await cli(['serve', '-c', 'config.yaml'], opts());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${shown}\n`);
  });
});
