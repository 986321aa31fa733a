/** `config`: print a client configuration snippet on stdout and where to paste it on stderr. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatasetSpecError, parseDatasetSpec } from '@cloudg/server';
import {
  CLIENT_HINTS,
  CLIENTS,
  type ClientName,
  clientConfig,
  DEFAULT_URL,
  launchCommand,
} from '../client-config.js';
import { CliError, type CliIo } from '../io.js';
import { loadConfigOption } from '../options.js';

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

export function configCommand(flags: ConfigFlags, io: CliIo): number {
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
    loadConfigOption(path, io.cwd);
    serveArgs.push('--config', path);
  }
  if (flags.policy) serveArgs.push('--policy', flags.policy);
  for (const value of flags.dataset) {
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
    serveArgs.push('--dataset', spec.name ? `${spec.name}=${spec.path}` : spec.path);
  }
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
