/** `--help`, `help COMMAND` and `--version`: every command is listed and each one's help works. */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const COMMANDS = ['serve', 'tools', 'resources', 'prompts', 'call', 'read', 'config'];

describe('cloudg-mcp --help', () => {
  it('lists every command with its arguments and description', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: cloudg-mcp [options] [command]');
    expect(stdout).toMatch(/serve \[options\]\s+Serve MCP over stdio, Streamable HTTP or HTTP\+SSE/);
    expect(stdout).toMatch(/call \[options\] <TOOL>\s+Call a tool in-process through the full layer/);
    expect(stdout).toMatch(/read \[options\] <URI>\s+Read a resource in-process/);
    expect(stdout).toMatch(/config \[options\]\s+Print a client configuration snippet/);
    for (const name of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it.each(COMMANDS)('%s: --help and help COMMAND show its options', async (name) => {
    const direct = await cli([name, '--help']);
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain(`Usage: cloudg-mcp ${name} [options]`);
    expect(direct.stdout).toContain('--log-level <LEVEL>');
    const viaHelp = await cli(['help', name]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(direct.stdout);
  });

  it('--version prints the server version', async () => {
    const { SERVER_VERSION } = await import('@cloudg/server');
    const { code, stdout } = await cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(SERVER_VERSION);
  });

  it('an unknown command is a usage error (status 2)', async () => {
    const { code, stderr } = await cli(['serv']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'serv'");
  });
});
