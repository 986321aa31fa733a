import { describe, expect, it } from 'vitest';
import { cli, SAMPLE_MAP } from './helpers.js';

const CMD = ['--command', 'cloudg-mcp'];

describe('config (MCP.md 3.2, 3.3, 5.7)', () => {
  it('Claude Desktop over stdio, with the hint on stderr', async () => {
    const run = await cli(['config', ...CMD]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: { cloudg: { command: 'cloudg-mcp', args: ['serve'] } },
    });
    expect(run.stderr).toContain('claude_desktop_config.json');
  });

  it('Claude Code over stdio has type and env', async () => {
    const run = await cli(['config', '--client', 'claude-code', ...CMD]);
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: { cloudg: { type: 'stdio', command: 'cloudg-mcp', args: ['serve'], env: {} } },
    });
    expect(run.stderr).toContain('.mcp.json');
  });

  it('Cursor has the Claude Desktop shape; VS Code uses servers and a type', async () => {
    const cursor = await cli(['config', '--client', 'cursor', ...CMD]);
    expect(JSON.parse(cursor.stdout)).toEqual({
      mcpServers: { cloudg: { command: 'cloudg-mcp', args: ['serve'] } },
    });
    const vscode = await cli(['config', '--client', 'vscode', ...CMD]);
    expect(JSON.parse(vscode.stdout)).toEqual({
      servers: { cloudg: { type: 'stdio', command: 'cloudg-mcp', args: ['serve'] } },
    });
    expect(vscode.stderr).toContain('.vscode/mcp.json');
  });

  it('bakes policy, absolute dataset paths and --read-only into the launch arguments', async () => {
    const run = await cli(
      [
        'config',
        '--client',
        'claude-desktop',
        '--policy',
        'strict',
        '--dataset',
        'prod=./inventory/inventory-map.json',
        '--read-only',
        ...CMD,
      ],
      { cwd: '/srv/cloudg' },
    );
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: {
        cloudg: {
          command: 'cloudg-mcp',
          args: [
            'serve',
            '--policy',
            'strict',
            '--dataset',
            'prod=/srv/cloudg/inventory/inventory-map.json',
            '--read-only',
          ],
        },
      },
    });
  });

  it('adds serve to a custom --command unless it already ends with it', async () => {
    for (const command of ['cloudg-mcp', 'cloudg-mcp serve']) {
      const run = await cli(['config', '--command', command, '--policy', 'strict']);
      expect(JSON.parse(run.stdout).mcpServers.cloudg.args).toEqual(['serve', '--policy', 'strict']);
    }
  });

  it('splits a custom --command and falls back to node and the script path with auto', async () => {
    const custom = await cli(['config', '--command', 'npx -y @cloudg/cli']);
    expect(JSON.parse(custom.stdout).mcpServers.cloudg).toEqual({
      command: 'npx',
      args: ['-y', '@cloudg/cli', 'serve'],
    });
    const auto = await cli(['config']);
    const entry = JSON.parse(auto.stdout).mcpServers.cloudg;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args.at(-2)).toMatch(/bin\.(js|ts)$/);
    expect(entry.args.at(-1)).toBe('serve');
  });

  it('over HTTP with a token variable, in each client syntax', async () => {
    const http = ['--transport', 'http', '--token-env', 'CLOUDG_MCP_TOKEN'];
    const code = JSON.parse((await cli(['config', '--client', 'claude-code', ...http])).stdout);
    expect(code).toEqual({
      mcpServers: {
        cloudg: {
          type: 'http',
          url: 'http://127.0.0.1:8765/mcp',
          headers: { Authorization: 'Bearer ${CLOUDG_MCP_TOKEN}' },
        },
      },
    });
    const cursor = JSON.parse((await cli(['config', '--client', 'cursor', ...http])).stdout);
    expect(cursor).toEqual({
      mcpServers: {
        cloudg: {
          url: 'http://127.0.0.1:8765/mcp',
          headers: { Authorization: 'Bearer ${env:CLOUDG_MCP_TOKEN}' },
        },
      },
    });
    const vscode = JSON.parse((await cli(['config', '--client', 'vscode', ...http])).stdout);
    expect(vscode).toEqual({
      servers: {
        cloudg: {
          type: 'http',
          url: 'http://127.0.0.1:8765/mcp',
          headers: { Authorization: 'Bearer ${env:CLOUDG_MCP_TOKEN}' },
        },
      },
    });
    const desktop = JSON.parse((await cli(['config', '--client', 'claude-desktop', ...http])).stdout);
    expect(desktop).toEqual({
      mcpServers: {
        cloudg: {
          command: 'npx',
          args: [
            '-y',
            'mcp-remote',
            'http://127.0.0.1:8765/mcp',
            '--header',
            'Authorization:Bearer ${CLOUDG_MCP_TOKEN}',
          ],
        },
      },
    });
  });

  it('ignores --policy, --dataset and --read-only over HTTP, and honours --name and --url', async () => {
    const run = await cli([
      'config',
      '--transport',
      'http',
      '--client',
      'claude-code',
      '--name',
      'sec',
      '--url',
      'http://h:1/mcp',
      '--policy',
      'strict',
      '--dataset',
      SAMPLE_MAP,
    ]);
    expect(JSON.parse(run.stdout)).toEqual({ mcpServers: { sec: { type: 'http', url: 'http://h:1/mcp' } } });
  });

  it('refuses an unknown client', async () => {
    const run = await cli(['config', '--client', 'emacs']);
    expect(run.code).toBe(2);
  });
});
