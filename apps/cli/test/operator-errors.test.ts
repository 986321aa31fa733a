/**
 * Errors for the person at the terminal: the option and the value that was wrong, what would
 * have worked, and exit status 2 for every bad option (1 is for a call that failed).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listProfiles } from '@cloudg/policy';
import { describe, expect, it } from 'vitest';
import { cli, PROD, SAMPLE_MAP } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cloudg-cli-errors-'));

describe('--dataset', () => {
  it('names the option, the value and the path it resolved to when the path does not exist', async () => {
    for (const command of [['call', 'workspace_status'], ['tools'], ['serve']]) {
      const run = await cli([...command, '--dataset', 'prod=./nope/inventory-map.json'], { cwd: dir });
      expect(run.code, command.join(' ')).toBe(2);
      expect(run.stderr).toBe(
        `Error: Invalid value for --dataset prod=./nope/inventory-map.json: ${join(dir, 'nope', 'inventory-map.json')} does not exist\n`,
      );
      expect(run.stdout).toBe('');
    }
  });

  it('says what is wrong with a malformed value', async () => {
    const run = await cli(['tools', '--dataset', 'prod=']);
    expect(run).toMatchObject({
      code: 2,
      stderr: 'Error: Invalid value for --dataset prod=: A dataset needs a path after NAME=\n',
    });
  });

  it('passes on why a file that exists could not be loaded', async () => {
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, '{"hello": "world"}');
    const run = await cli(['call', 'workspace_status', '--dataset', `notes=${notes}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^Error: Invalid value for --dataset notes=${notes}: \\S`));
  });

  it('loads what exists', async () => {
    const run = await cli(['call', 'count_assets', '--policy', 'open', '--dataset', PROD]);
    expect(run.code).toBe(0);
  });
});

describe('--policy', () => {
  it('lists the built-in profiles when the name is not one of them', async () => {
    const run = await cli(['tools', '--policy', 'stricter']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `Error: Invalid value for --policy: 'stricter' is not a built-in profile (${listProfiles().join(', ')}), an existing .yaml/.yml/.json file or inline JSON\n`,
    );
    expect(run.stderr).toContain('soc-analyst');
  });

  it('refuses a policy file that does not validate with status 2, naming the problem', async () => {
    const file = join(dir, 'bad-policy.json');
    writeFileSync(file, JSON.stringify({ name: 1 }));
    const run = await cli(['call', 'workspace_status', '--policy', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Error: Invalid value for --policy: Invalid policy: name: /);
  });

  it('names the missing file', async () => {
    const run = await cli(['serve', '--policy', 'policies/team.yaml'], { cwd: dir });
    expect(run).toMatchObject({
      code: 2,
      stderr: `Error: Invalid value for --policy: ${join(dir, 'policies', 'team.yaml')} does not exist\n`,
    });
  });

  it('says when inline JSON does not parse', async () => {
    const run = await cli(['tools', '--policy', '{"extends": "strict"']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Error: Invalid value for --policy: /);
  });
});

describe('exit status 2 for every bad option', () => {
  it.each([
    [['tools', '--prefix', 'bad prefix']],
    [['serve', '--flavor', 'teapot']],
    [['call', 'workspace_status', '--log-level', 'chatty']],
    [['config', '--log-level', 'chatty']],
    [['serve', '--traces', 'zipkin']],
    [['call', 'workspace_status', '--args', '[]']],
  ])('%j', async (args) => {
    expect((await cli(args)).code).toBe(2);
  });

  it('a call that fails is 1, not 2', async () => {
    expect((await cli(['call', 'no_such_tool'])).code).toBe(1);
  });
});

describe('config --dataset', () => {
  it('warns on stderr when the path does not exist yet, and still prints the snippet', async () => {
    const run = await cli(
      ['config', '--client', 'claude-code', '--dataset', 'prod=./later/inventory-map.json'],
      {
        cwd: dir,
      },
    );
    const path = join(dir, 'later', 'inventory-map.json');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Warning: --dataset prod=./later/inventory-map.json: ${path} does not exist; the server will not start until it does\n`,
    );
    const config = JSON.parse(run.stdout) as { mcpServers: { cloudg: { args: string[] } } };
    expect(config.mcpServers.cloudg.args.slice(-2)).toEqual(['--dataset', `prod=${path}`]);
  });

  it('--sample launches the server with the bundled estate', async () => {
    const run = await cli(['config', '--client', 'cursor', '--sample', '--command', 'cloudg-mcp']);
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: { cloudg: { command: 'cloudg-mcp', args: ['serve', '--sample'] } },
    });
  });

  it('says nothing more for a path that exists', async () => {
    const run = await cli(['config', '--client', 'claude-code', '--dataset', `prod=${SAMPLE_MAP}`]);
    expect(run.stderr).not.toContain('Warning');
  });
});
