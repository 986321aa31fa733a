/**
 * Logs of every command: quiet at the default WARNING, `--log-level` everywhere, human-readable on
 * a terminal and JSON elsewhere, and one DEBUG line per request without argument values.
 */
import { describe, expect, it } from 'vitest';
import { cli, PROD } from './helpers.js';

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log level', () => {
  it('call and read print no INFO lines at the default level, even under a policy that logs decisions', async () => {
    const call = await cli(['call', 'find_assets', '--policy', 'audit', '--args', '{"limit": 1}']);
    expect(call.code).toBe(0);
    expect(call.logs).toBe('');
    const read = await cli(['read', 'cloudg://workspace', '--policy', 'audit']);
    expect(read.code).toBe(0);
    expect(read.logs).toBe('');
  });

  it('--log-level INFO shows the policy decisions, as JSON lines when stderr is not a terminal', async () => {
    const run = await cli([
      'call',
      'find_assets',
      '--policy',
      'audit',
      '--log-level',
      'info',
      '--args',
      '{"limit": 1}',
    ]);
    const decisions = jsonLines(run.logs).filter((l) => l.event === 'policy.decision');
    expect(decisions).toMatchObject([
      { level: 30, decision: 'allowed', name: 'find_assets', principal: 'local' },
    ]);
  });

  it('CLOUDG_LOG_LEVEL applies when --log-level is not given', async () => {
    const run = await cli(['call', 'find_assets', '--policy', 'audit'], {
      env: { CLOUDG_LOG_LEVEL: 'INFO' },
    });
    expect(jsonLines(run.logs).some((l) => l.event === 'policy.decision')).toBe(true);
    const flagWins = await cli(['call', 'find_assets', '--policy', 'audit', '--log-level', 'ERROR'], {
      env: { CLOUDG_LOG_LEVEL: 'debug' },
    });
    expect(flagWins.logs).toBe('');
  });

  it('is accepted by every command', async () => {
    for (const args of [
      ['tools', '--log-level', 'debug'],
      ['resources', '--log-level', 'DEBUG'],
      ['prompts', '--log-level', 'Error'],
      ['read', 'cloudg://workspace', '--log-level', 'warning'],
      ['config', '--log-level', 'INFO'],
    ]) {
      expect((await cli(args)).code, args.join(' ')).toBe(0);
    }
  });
});

describe('on a terminal', () => {
  it('log lines are human-readable, not JSON', async () => {
    const run = await cli(['call', 'find_assets', '--policy', 'audit', '--log-level', 'INFO'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    const line = run.logs.split('\n').find((l) => l.includes('allowed tool find_assets'));
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: allowed tool find_assets principal=local/);
    expect(() => JSON.parse(line!)).toThrow();
  });

  it('CLOUDG_LOG_FORMAT=json keeps JSON lines', async () => {
    const run = await cli(['call', 'find_assets', '--policy', 'audit', '--log-level', 'INFO'], {
      tty: true,
      env: { CLOUDG_LOG_FORMAT: 'json' },
    });
    expect(jsonLines(run.logs).length).toBeGreaterThan(0);
  });
});

describe('request log at DEBUG', () => {
  it('one line per request: method, target, principal, outcome, duration; never an argument value', async () => {
    const run = await cli([
      'call',
      'count_assets',
      '--policy',
      'open',
      '--dataset',
      PROD,
      '--log-level',
      'DEBUG',
      '--args',
      '{"group_by": "provider", "query": "secret-lookup-term"}',
    ]);
    const requests = jsonLines(run.logs).filter((l) => l.event === 'mcp.request');
    expect(requests).toEqual([
      {
        level: 20,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        name: 'cloudg',
        event: 'mcp.request',
        method: 'tools/call',
        tool: 'count_assets',
        principal: 'local',
        outcome: expect.stringMatching(/^(ok|error)$/),
        duration_ms: expect.any(Number),
        transport: 'cli',
        msg: expect.stringMatching(/^tools\/call count_assets /),
      },
    ]);
    expect(run.logs).not.toContain('secret-lookup-term');

    const read = await cli(['read', 'cloudg://nope', '--log-level', 'DEBUG', '--principal-id', 'ann']);
    expect(read.code).toBe(1);
    expect(jsonLines(read.logs).filter((l) => l.event === 'mcp.request')).toMatchObject([
      { method: 'resources/read', uri: 'cloudg://nope', principal: 'ann', outcome: 'not_found' },
    ]);
  });
});

describe('--pretty-json', () => {
  it('indents the text block of a tool result; compact by default', async () => {
    const args = ['call', 'count_assets', '--policy', 'open', '--dataset', PROD, '--raw'];
    const text = async (extra: string[]) =>
      (JSON.parse((await cli([...args, ...extra])).stdout) as { content: Array<{ text: string }> })
        .content[0]!.text;
    expect(await text([])).toMatch(/^\{"dataset":"prod",/);
    expect(await text(['--pretty-json'])).toMatch(/^\{\n {2}"dataset": "prod",/);
  });
});
