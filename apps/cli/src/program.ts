/** The `cloudg-mcp` command: serve, tools, resources, prompts, call, read, config. */

import { SuppressionStoreError } from '@cloudg/catalog';
import { LayerConfigError } from '@cloudg/core';
import { PolicyError } from '@cloudg/policy';
import {
  DatasetSpecError,
  FLAVOR_NAMES,
  SERVER_VERSION,
  ServeOptionsError,
  TRACE_EXPORTERS,
  TRANSPORTS,
} from '@cloudg/server';
import { Command, CommanderError, Option } from 'commander';
import { CLIENTS } from './client-config.js';
import { callCommand, readCommand } from './commands/call.js';
import { configCommand } from './commands/config.js';
import { listCommand } from './commands/listing.js';
import { type ServeFlags, serveCommand } from './commands/serve.js';
import { CliError, type CliIo, processIo } from './io.js';
import { addLogLevelOption } from './logging.js';
import { addOAuthOptions } from './oauth-options.js';
import {
  addLayerAndLogOptions,
  addPrincipalOptions,
  collect,
  type LayerFlags,
  parseCount,
  parseSecondsFor,
} from './options.js';

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('cloudg-mcp')
    .description('cloudg MCP server: a governed cloud security inventory for AI agents')
    .version(SERVER_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError(false);

  const serve = program
    .command('serve')
    .description('Serve MCP over stdio, Streamable HTTP or HTTP+SSE')
    .addOption(new Option('--transport <NAME>', 'transport').choices(TRANSPORTS).default('stdio'))
    .option('--host <HOST>', 'HTTP bind address', '127.0.0.1')
    .option('--port <PORT>', 'HTTP port (0 picks a free one)', parseCount('--port', 0, 65535), 8765)
    .option('--path <PATH>', 'Streamable HTTP endpoint', '/mcp')
    .addOption(
      new Option(
        '--flavor <NAME>',
        'server implementation: native (every option below) or sdk (the official MCP SDK); auto is native',
      )
        .choices(FLAVOR_NAMES)
        .default('auto'),
    )
    .option(
      '--auth-token <TOKEN[:ROLES[:ID]]>',
      'require this bearer token on HTTP; repeatable (env CLOUDG_MCP_AUTH_TOKENS)',
      collect,
    )
    .option('--allowed-origin <PATTERN>', 'allowed browser Origin values; repeatable', collect)
    .option('--allowed-host <PATTERN>', 'allowed Host values; repeatable', collect)
    .option('--cors-origin <ORIGIN>', 'grant CORS to this origin; repeatable', collect)
    .option('--json-response', 'answer POSTs with JSON, never SSE')
    .option('--client-roots', "stdio: the client's opened folders become the allowed roots (within any set)")
    .option('--stateless', 'session-less Streamable HTTP')
    .option(
      '--cache-ttl <SECONDS>',
      'cache read-only, idempotent tools for N seconds',
      parseSecondsFor('--cache-ttl'),
    )
    .option('--max-concurrency <N>', 'cap concurrent tool calls', parseCount('--max-concurrency', 1))
    .option(
      '--redis-url <URL>',
      'share rate limits, pseudonyms and the response cache with other replicas through this Redis (env CLOUDG_MCP_REDIS_URL)',
    )
    .option(
      '--page-size <N>',
      'items per page of list results; 0 disables paging',
      parseCount('--page-size'),
      100,
    )
    .option(
      '--public-metrics',
      'serve /metrics without a bearer token (HTTP; default: the same token as /mcp)',
    )
    .addOption(
      new Option(
        '--traces <EXPORTER>',
        'OpenTelemetry spans per request: otlp (OTEL_EXPORTER_OTLP_* settings) or console (env OTEL_TRACES_EXPORTER; default none)',
      ).choices(TRACE_EXPORTERS),
    );
  addOAuthOptions(serve);
  addLayerAndLogOptions(serve).action(async (flags: ServeFlags) => setExit(await serveCommand(flags, io)));

  for (const kind of ['tools', 'resources', 'prompts'] as const) {
    const cmd = program
      .command(kind)
      .description(`List the ${kind} the policy shows a principal`)
      .option('--json', 'print the exact wire definitions');
    if (kind === 'tools') cmd.option('--category <CAT>', 'only this category; repeatable', collect);
    addPrincipalOptions(addLayerAndLogOptions(cmd)).action(
      async (flags: LayerFlags & { json?: boolean; category?: string[] }) =>
        setExit(await listCommand(kind, flags, io)),
    );
  }

  const call = program
    .command('call')
    .description('Call a tool in-process through the full layer')
    .argument('<TOOL>', 'tool name')
    .option('--args <JSON|@FILE|->', 'arguments as a JSON object, @file or - for stdin')
    .option('--raw', 'print the whole CallToolResult');
  addPrincipalOptions(addLayerAndLogOptions(call)).action(
    async (tool: string, flags: LayerFlags & { args?: string; raw?: boolean }) =>
      setExit(await callCommand(tool, flags, io)),
  );

  const read = program
    .command('read')
    .description('Read a resource in-process')
    .argument('<URI>', 'resource URI');
  addPrincipalOptions(addLayerAndLogOptions(read)).action(async (uri: string, flags: LayerFlags) =>
    setExit(await readCommand(uri, flags, io)),
  );

  const config = program
    .command('config')
    .description('Print a client configuration snippet')
    .addOption(new Option('--client <NAME>', 'client').choices(CLIENTS).default('claude-desktop'))
    .option('--name <NAME>', 'server key in the config', 'cloudg')
    .addOption(
      new Option('--transport <NAME>', 'stdio launches the server; http connects to --url')
        .choices(['stdio', 'http'])
        .default('stdio'),
    )
    .option('--url <URL>', 'server URL for http', 'http://127.0.0.1:8765/mcp')
    .option('--command <CMD>', "launch command; 'auto' finds cloudg-mcp", 'auto')
    .option(
      '-c, --config <PATH>',
      'cloudg config.yaml for the launched server: providers, credentials, report directory, rulesets, state (checked, made absolute)',
    )
    .option('--policy <NAME_OR_FILE>', 'policy for the launched server')
    .option('--dataset <[NAME=]PATH>', 'preload a dataset; repeatable', collect, [])
    .option('--sample', 'launch the server with the bundled sample estate (--sample)')
    .option('--read-only', 'launch the server with --read-only')
    .option('--token-env <VAR>', 'for http: send Authorization: Bearer ${VAR}');
  addLogLevelOption(config).action((flags) => setExit(configCommand(flags, io)));

  return program;
}

/** Run the CLI; resolves with the exit status instead of exiting, so tests can call it. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      io.stderr(`Error: ${error.message}\n`);
      return error.exitCode;
    }
    // Options that cannot work (a bad prefix, flavor or dataset) are refused like malformed ones.
    if (error instanceof DatasetSpecError) {
      const what = error.value === undefined ? '' : ` ${error.value}`;
      io.stderr(`Error: Invalid value for --dataset${what}: ${error.reason ?? error.message}\n`);
      return 2;
    }
    // A damaged suppressions file in the state directory is a start-up setting that cannot work,
    // refused like a bad --config (status 2), not a run-time failure; the message names the file.
    if (error instanceof SuppressionStoreError && error.code === 'state_unreadable') {
      io.stderr(`Error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof LayerConfigError || error instanceof ServeOptionsError) {
      io.stderr(`Error: ${error.message}\n`);
      return 2;
    }
    if (
      error instanceof PolicyError ||
      (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'number')
    ) {
      io.stderr(`Error: ${(error as Error).message}\n`);
      return 1;
    }
    io.stderr(`Error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    return 1;
  }
}
