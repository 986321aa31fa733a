/**
 * `config`: print a client configuration snippet on stdout and where to paste it on stderr. It
 * loads the server (for `--dataset`) and the catalog (for `--config`) only when those are given,
 * so the plain command starts in a fraction of the time of one that builds a layer.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.js';
import {
  CLIENT_HINTS,
  CLIENTS,
  type ClientName,
  clientConfig,
  DEFAULT_URL,
  launchCommand,
} from '../client-config.js';
import type { CliIo } from '../io.js';

export interface ConfigFlags {
  client: string;
  name: string;
  transport: string;
  url: string;
  command: string;
  config?: string;
  policy?: string;
  dataset: string[];
  readOnly?: boolean;
  sample?: boolean;
  tokenEnv?: string;
}

/** Split a command line the way a POSIX shell would for simple quoting. */
export function splitCommand(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return out;
}

/**
 * `--dataset` values as the launched server gets them: each path made absolute, with a warning
 * for one that does not exist yet. The server package (which parses the values) loads only here.
 */
async function datasetArgs(values: readonly string[], io: CliIo): Promise<string[]> {
  if (values.length === 0) return [];
  const { DatasetSpecError, parseDatasetSpec } = await import('@cloudg/server');
  const args: string[] = [];
  for (const value of values) {
    let spec: ReturnType<typeof parseDatasetSpec>;
    try {
      spec = parseDatasetSpec(value, io.cwd);
    } catch (error) {
      if (error instanceof DatasetSpecError)
        throw new CliError(`Invalid value for --dataset ${value}: ${error.message}`, 2);
      throw error;
    }
    // The snippet is still printed (the file may be written later), but a client would fail to
    // start the server until it exists: say so now rather than in the client's log.
    if (!existsSync(spec.path)) {
      io.stderr(
        `Warning: --dataset ${value}: ${spec.path} does not exist; the server will not start until it does\n`,
      );
    }
    args.push('--dataset', spec.name ? `${spec.name}=${spec.path}` : spec.path);
  }
  return args;
}

export async function configCommand(flags: ConfigFlags, io: CliIo): Promise<number> {
  if (!(CLIENTS as readonly string[]).includes(flags.client)) {
    throw new CliError(`Invalid value for --client: choose one of ${CLIENTS.join(', ')}`, 2);
  }
  if (flags.transport !== 'stdio' && flags.transport !== 'http') {
    throw new CliError("Invalid value for --transport: choose 'stdio' or 'http'", 2);
  }
  const client = flags.client as ClientName;
  const serveArgs: string[] = [];
  if (flags.config !== undefined && flags.transport === 'stdio') {
    // Checked now rather than when the client first launches the server, and made absolute
    // because the client starts it from a directory we do not control. Over HTTP the client
    // launches nothing, so like --policy it does not apply.
    const path = resolve(io.cwd, flags.config);
    const { loadConfigOption } = await import('../options.js');
    loadConfigOption(path, io.cwd);
    serveArgs.push('--config', path);
  }
  if (flags.policy) serveArgs.push('--policy', flags.policy);
  serveArgs.push(...(await datasetArgs(flags.dataset, io)));
  if (flags.sample) serveArgs.push('--sample');
  if (flags.readOnly) serveArgs.push('--read-only');
  const command = flags.command === 'auto' ? launchCommand(io.env) : splitCommand(flags.command);
  if (command.length === 0) throw new CliError('Invalid value for --command: it is empty', 2);
  const config = clientConfig(client, {
    name: flags.name,
    transport: flags.transport,
    url: flags.url || DEFAULT_URL,
    command,
    serveArgs,
    ...(flags.tokenEnv ? { tokenEnv: flags.tokenEnv } : {}),
  });
  io.stdout(`${JSON.stringify(config, null, 2)}\n`);
  io.stderr(`${CLIENT_HINTS[client]}\n`);
  return 0;
}
