/**
 * The commands of `cloudg-mcp`: what the overview lists, and where each one's options and action
 * come from. A command's definition is imported only when that command runs (or its help is
 * asked for), and its work only when it runs, so `--help` and `config` do not pay for loading the
 * server, the catalog and the policy engine.
 */
import type { Command } from 'commander';
import type { CliIo } from './io.js';

/** Adds a command's arguments, options and action to its so far empty commander command. */
export type DefineCommand = (command: Command, io: CliIo, setExit: (code: number) => void) => void;

export interface CommandEntry {
  name: string;
  /**
   * The command as the overview shows it. Commander would derive it from the arguments and
   * options, which are not defined yet when the overview is printed.
   */
  term: string;
  description: string;
  load: () => Promise<{ define: DefineCommand }>;
}

const listing = () => import('./definitions/listing.js');

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    term: 'serve [options]',
    description: 'Serve MCP over stdio, Streamable HTTP or HTTP+SSE',
    load: () => import('./definitions/serve.js'),
  },
  ...(['tools', 'resources', 'prompts'] as const).map((kind) => ({
    name: kind,
    term: `${kind} [options]`,
    description: `List the ${kind} the policy shows a principal`,
    load: listing,
  })),
  {
    name: 'call',
    term: 'call [options] <TOOL>',
    description: 'Call a tool in-process through the full layer',
    load: () => import('./definitions/call.js'),
  },
  {
    name: 'read',
    term: 'read [options] <URI>',
    description: 'Read a resource in-process',
    load: () => import('./definitions/read.js'),
  },
  {
    name: 'config',
    term: 'config [options]',
    description: 'Print a client configuration snippet',
    load: () => import('./definitions/config.js'),
  },
];
