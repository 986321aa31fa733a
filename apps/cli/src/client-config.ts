/** Client configuration snippets for Claude Desktop, Claude Code, Cursor and VS Code (MCP.md 3.2, 3.3). */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '@cloudg/core';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface ClientConfigOptions {
  name?: string;
  transport?: 'stdio' | 'http';
  url?: string;
  /** The launch command and its leading arguments, e.g. `['cloudg-mcp']`. */
  command?: string[];
  /** Arguments after `serve`. */
  serveArgs?: string[];
  tokenEnv?: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:8765/mcp';

export const CLIENT_HINTS: Record<ClientName, string> = {
  'claude-desktop':
    'Merge this into claude_desktop_config.json (Settings > Developer > Edit Config), then restart Claude Desktop.',
  'claude-code':
    "Save it as .mcp.json in the project root, or pass the inner entry to `claude mcp add-json <name> '<entry JSON>'`.",
  cursor: 'Merge this into ~/.cursor/mcp.json (global) or .cursor/mcp.json (project).',
  vscode: 'Save it as .vscode/mcp.json.',
};

/**
 * The command that starts this CLI: `cloudg-mcp` when it is on PATH, else Node running this
 * package's own entry script by absolute path (the client starts it from a directory we do not control).
 */
export function launchCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'cloudg-mcp'))) return ['cloudg-mcp'];
  }
  return [process.execPath, fileURLToPath(new URL('./bin.js', import.meta.url))];
}

export function clientConfig(client: ClientName, options: ClientConfigOptions = {}): JsonObject {
  const name = options.name ?? 'cloudg';
  const transport = options.transport ?? 'stdio';
  const servers = client === 'vscode' ? 'servers' : 'mcpServers';
  let entry: JsonObject;
  if (transport === 'http') {
    const url = options.url ?? DEFAULT_URL;
    const variable = (syntax: 'plain' | 'env') =>
      options.tokenEnv ? (syntax === 'env' ? `\${env:${options.tokenEnv}}` : `\${${options.tokenEnv}}`) : '';
    if (client === 'claude-desktop') {
      // Claude Desktop only launches local commands: bridge to the URL with mcp-remote.
      const args = ['-y', 'mcp-remote', url];
      if (options.tokenEnv) args.push('--header', `Authorization:Bearer ${variable('plain')}`);
      entry = { command: 'npx', args };
    } else {
      entry = client === 'cursor' ? { url } : { type: 'http', url };
      if (options.tokenEnv) {
        entry.headers = { Authorization: `Bearer ${variable(client === 'claude-code' ? 'plain' : 'env')}` };
      }
    }
  } else {
    const [command, ...lead] = options.command ?? ['cloudg-mcp'];
    // `serve` is added unless the given command already ends with it (`cloudg-mcp serve`, as the
    // reference's own launch commands are written).
    const withServe = lead.at(-1) === 'serve' ? lead : [...lead, 'serve'];
    const args = [...withServe, ...(options.serveArgs ?? [])];
    if (client === 'claude-code') entry = { type: 'stdio', command: command!, args, env: {} };
    else if (client === 'vscode') entry = { type: 'stdio', command: command!, args };
    else entry = { command: command!, args };
  }
  return { [servers]: { [name]: entry } };
}
