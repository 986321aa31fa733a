import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, PROD, SAMPLE_MAP } from './helpers.js';

describe('shared options (MCP.md 5.1)', () => {
  it('refuses an invalid prefix before doing anything, as a bad option (exit 2)', async () => {
    const run = await cli(['tools', '--prefix', 'bad prefix']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Error: Invalid prefix/);
    expect(run.stdout).toBe('');
  });

  it('applies a valid prefix to tool names', async () => {
    const run = await cli([
      'tools',
      '--json',
      '--policy',
      'open',
      '--prefix',
      'cg_',
      '--include-category',
      'workspace',
    ]);
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('cg_'))).toBe(true);
  });

  it('filters by category and tool name, and --read-only keeps in-memory tools', async () => {
    const run = await cli([
      'tools',
      '--json',
      '--policy',
      'open',
      '--include-tool',
      'find_assets',
      '--include-tool',
      'get_asset',
    ]);
    expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((t) => t.name)).toEqual([
      'find_assets',
      'get_asset',
    ]);
    const ro = await cli([
      'tools',
      '--json',
      '--policy',
      'open',
      '--read-only',
      '--include-category',
      'workspace',
    ]);
    expect((JSON.parse(ro.stdout) as Array<{ name: string }>).map((t) => t.name)).toContain('load_dataset');
  });

  it('always lists cloudg://metrics', async () => {
    const run = await cli(['resources', '--json', '--policy', 'open']);
    const listing = JSON.parse(run.stdout) as {
      resources: Array<{ uri: string }>;
      resourceTemplates: unknown[];
    };
    expect(listing.resources.map((r) => r.uri)).toContain('cloudg://metrics');
    expect(Array.isArray(listing.resourceTemplates)).toBe(true);
  });

  it('reads the policy from CLOUDG_MCP_POLICY when --policy is absent', async () => {
    const strict = await cli(['call', 'privacy_status', '--raw'], { env: { CLOUDG_MCP_POLICY: 'open' } });
    if (strict.code === 0) expect(JSON.parse(strict.stdout).structuredContent.policy).toBe('open');
    const unknown = await cli(['tools'], { env: { CLOUDG_MCP_POLICY: 'no-such-profile' } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^Error: Invalid value for CLOUDG_MCP_POLICY: 'no-such-profile' is not a built-in profile \(/,
    );
  });
});

describe('call (MCP.md 5.5)', () => {
  it('prints the structured result of a successful call and exits 0', async () => {
    const run = await cli([
      'call',
      'find_assets',
      '--policy',
      'open',
      '--dataset',
      PROD,
      '--args',
      '{"internet_exposed": true, "limit": 3, "fields": ["name","type","account_id","arn"]}',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ dataset: 'prod', total: 6, offset: 0, returned: 3, truncated: true });
    expect(result.next_cursor).toMatch(/^c3\.[0-9a-f]{12}$/);
    expect(result.items.map((i: { id: string }) => i.id)).toEqual(['bastion', 'az-vm', 'logs-bucket']);
    expect(result.items[0]).toEqual({
      id: 'bastion',
      name: 'bastion',
      type: 'EC2',
      account_id: '111111111111',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0bast',
    });
  });

  it('exits 1 with the raw error result when the tool returns isError', async () => {
    const run = await cli([
      'call',
      'get_asset',
      '--policy',
      'open',
      '--dataset',
      PROD,
      '--args',
      '{"ref": "bastoin"}',
      '--raw',
    ]);
    expect(run.code).toBe(1);
    const wire = JSON.parse(run.stdout);
    expect(wire.isError).toBe(true);
    expect(wire._meta['cloudg/error_code']).toBe(-32602);
    expect(wire._meta['cloudg/error_data'].suggestions.map((s: { name: string }) => s.name)).toEqual([
      'bastion',
      'bastion-admin',
    ]);
    // The message does not echo the caller's value or the dataset name.
    expect(wire.content[0].text).not.toContain('bastoin');
  });

  it('prints "Error: Unknown tool: NAME" and exits 1 for an unknown or hidden tool', async () => {
    const run = await cli(['call', 'no_such_tool']);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: 'Error: Unknown tool: no_such_tool\n' });
  });

  it('takes --args from a file and from stdin, and refuses what is not a JSON object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-cli-'));
    writeFileSync(join(dir, 'args.json'), '{"group_by": "provider"}');
    const fromFile = await cli(
      ['call', 'count_assets', '--policy', 'open', '--dataset', PROD, '--args', '@args.json'],
      { cwd: dir },
    );
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout).groups).toEqual({ AWS: 36, AZURE: 5, GCP: 3 });
    const fromStdin = await cli(
      ['call', 'count_assets', '--policy', 'open', '--dataset', PROD, '--args', '-'],
      {
        stdin: '{"group_by": "provider"}',
      },
    );
    expect(JSON.parse(fromStdin.stdout).total).toBe(44);
    const bad = await cli(['call', 'count_assets', '--args', '[1, 2]']);
    expect(bad).toMatchObject({
      code: 2,
      stderr: 'Error: Invalid value for --args: expected a JSON object\n',
    });
    const broken = await cli(['call', 'count_assets', '--args', '{nope']);
    expect(broken.stderr).toBe('Error: Invalid value for --args: not valid JSON\n');
  });

  it('invalid arguments are an error result with every problem listed', async () => {
    const run = await cli([
      'call',
      'find_assets',
      '--policy',
      'open',
      '--args',
      '{"limit": 0, "colour": "red"}',
      '--raw',
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      isError: true,
      _meta: {
        'cloudg/error_code': -32602,
        'cloudg/error_data': [
          { loc: 'limit', type: 'greater_than_equal' },
          { loc: 'colour', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
        ],
      },
    });
  });

  it('uses the bundled sample estate when no --dataset is given, unless --no-sample-estate', async () => {
    const sample = await cli(['call', 'count_assets', '--policy', 'open']);
    expect(JSON.parse(sample.stdout)).toMatchObject({ dataset: 'sample', total: 44 });
    const empty = await cli(['call', 'count_assets', '--policy', 'open', '--no-sample-estate']);
    expect(empty.code).toBe(1);
  });
});

describe('read (MCP.md 5.6)', () => {
  it('prints text contents as they are', async () => {
    const run = await cli(['read', 'cloudg://datasets/prod/summary', '--policy', 'open', '--dataset', PROD]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toBeTypeOf('object');
  });

  it('prints "Error: Unknown resource: URI" and exits 1', async () => {
    const run = await cli(['read', 'cloudg://nope']);
    expect(run).toMatchObject({ code: 1, stderr: 'Error: Unknown resource: cloudg://nope\n' });
  });
});

describe('principal options (MCP.md 5.2)', () => {
  it('acts as the given principal', async () => {
    const local = await cli(['call', 'privacy_status', '--policy', 'standard']);
    const ann = await cli([
      'call',
      'privacy_status',
      '--policy',
      'standard',
      '--role',
      'analyst',
      '--principal-id',
      'ann',
    ]);
    if (local.code === 0 && ann.code === 0) {
      expect(JSON.parse(local.stdout).principal).toEqual({ id: 'local', roles: ['default', 'local'] });
      expect(JSON.parse(ann.stdout).principal).toEqual({ id: 'ann', roles: ['analyst'] });
    }
    const onlyRole = await cli(['tools', '--json', '--policy', 'standard', '--role', 'admin']);
    expect(onlyRole.code).toBe(0);
  });
});

describe('serve validation (MCP.md 5.3)', () => {
  it('refuses an env: token whose variable is empty', async () => {
    const run = await cli(['serve', '--transport', 'http', '--auth-token', 'env:NOPE_VAR:x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "Error: Invalid value for --auth-token: Environment variable 'NOPE_VAR' for an auth token is empty\n",
    );
  });

  it('refuses the option combinations of section 5.3 with the documented messages', async () => {
    const cors = await cli(['serve', '--transport', 'http', '--flavor', 'sdk', '--cors-origin', 'http://x']);
    expect(cors.code).toBe(2);
    expect(cors.stderr).toBe(
      'Error: --cors-origin is only supported by the native flavor (use --flavor native)\n',
    );
    const sse = await cli(['serve', '--transport', 'sse', '--flavor', 'sdk']);
    expect(sse.code).toBe(2);
    expect(sse.stderr).toBe(
      'Error: --transport sse is only supported by the native flavor: the SDK has no legacy SSE server (use --flavor native)\n',
    );
  });

  it('offers only the flavors this build serves', async () => {
    const run = await cli(['serve', '--transport', 'http', '--flavor', 'python']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/'python' is invalid\. Allowed choices are auto, native, sdk, fastmcp/);
    const help = await cli(['serve', '--help']);
    // commander wraps help lines; the choices are what counts.
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '(choices: "auto", "native", "sdk", "fastmcp", default: "auto")',
    );
    // What the fastmcp flavor cannot serve is refused before anything starts.
    const stateless = await cli(['serve', '--transport', 'http', '--flavor', 'fastmcp', '--stateless']);
    expect(stateless.code).toBe(2);
    expect(stateless.stderr).toBe(
      'Error: --stateless is not supported by the fastmcp flavor: fastmcp does not announce stateless sessions (use --flavor native or sdk)\n',
    );
  });

  it('refuses out-of-range numbers, naming the option that was wrong', async () => {
    const cases: Array<[string[], string]> = [
      [['--port', '70000'], "Error: Invalid value for --port: '70000' is not between 0 and 65535\n"],
      [['--port', 'abc'], "Error: Invalid value for --port: 'abc' is not a whole number\n"],
      [['--cache-ttl', '-1'], "Error: Invalid value for --cache-ttl: '-1' is not a number of seconds\n"],
      [['--max-concurrency', '0'], "Error: Invalid value for --max-concurrency: '0' is not at least 1\n"],
      [['--page-size', ''], "Error: Invalid value for --page-size: '' is not a whole number\n"],
    ];
    for (const [args, message] of cases) {
      const run = await cli(['serve', '--transport', 'http', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toBe(message);
    }
  });

  it('refuses unknown transports and log levels', async () => {
    expect((await cli(['serve', '--transport', 'carrier-pigeon'])).code).toBe(2);
    const level = await cli(['serve', '--log-level', 'loud']);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain("Invalid value for --log-level: 'loud'");
  });

  it('reads CLOUDG_MCP_AUTH_TOKENS when no --auth-token is given', async () => {
    const run = await cli(['serve', '--transport', 'http'], {
      env: { CLOUDG_MCP_AUTH_TOKENS: 'env:MISSING_ONE:analyst' },
    });
    expect(run.stderr).toContain("Environment variable 'MISSING_ONE' for an auth token is empty");
  });
});

describe('sample paths', () => {
  it('the sample inventory map exists', async () => {
    const { existsSync } = await import('node:fs');
    expect(existsSync(SAMPLE_MAP)).toBe(true);
  });
});
