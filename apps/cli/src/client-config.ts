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
 * Whether `cloudg-mcp` is on PATH for the person or client that will run it. A package script
 * (`pnpm start`, `pnpm cloudg-mcp`) puts the workspace's `node_modules/.bin` on its own PATH,
 * which neither the user's shell nor a desktop client has, so those directories do not count.
 */
function onUserPath(env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    if (existsSync(join(dir, 'cloudg-mcp'))) return true;
  }
  return false;
}

/** This package's entry script, by absolute path. */
function binPath(): string {
  return fileURLToPath(new URL('./bin.js', import.meta.url));
}

/**
 * The command that starts this CLI: `cloudg-mcp` when it is on PATH, else Node running this
 * package's own entry script by absolute path (the client starts it from a directory we do not control).
 */
export function launchCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  if (onUserPath(env)) return ['cloudg-mcp'];
  return [process.execPath, binPath()];
}

/**
 * How the person at the terminal runs this CLI, for hints printed on stderr: `cloudg-mcp` when it
 * is on their PATH; `pnpm cloudg-mcp` when pnpm started us (`pnpm start` in a checkout, whose root
 * links the command); else `node` and the entry script's path.
 */
export function userCommand(env: NodeJS.ProcessEnv = process.env): string {
  if (onUserPath(env)) return 'cloudg-mcp';
  if (env.npm_lifecycle_event !== undefined && env.npm_config_user_agent?.startsWith('pnpm/'))
    return 'pnpm cloudg-mcp';
  const [node, script] = [process.execPath, binPath()];
  const quote = (text: string) => (/^[\w./:@+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
  return `${quote(node)} ${quote(script)}`;
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
