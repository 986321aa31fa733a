/** `serve`'s options. The server package loads here: its option values come from it. */
import { FLAVOR_NAMES, TRACE_EXPORTERS, TRANSPORTS } from '@cloudg/server';
import { Option } from 'commander';
import type { DefineCommand } from '../command-table.js';
import type { ServeFlags } from '../commands/serve.js';
import { addLayerAndLogOptions } from '../layer-flags.js';
import { addOAuthOptions } from '../oauth-options.js';
import { collect, parseCount, parseSecondsFor } from '../option-values.js';

export const define: DefineCommand = (serve, io, setExit) => {
  serve
    .addOption(new Option('--transport <NAME>', 'transport').choices(TRANSPORTS).default('stdio'))
    .option('--host <HOST>', 'HTTP bind address', '127.0.0.1')
    .option('--port <PORT>', 'HTTP port (0 picks a free one)', parseCount('--port', 0, 65535), 8765)
    .option('--path <PATH>', 'Streamable HTTP endpoint', '/mcp')
    .addOption(
      new Option(
        '--flavor <NAME>',
        'server implementation: native (every option below), sdk (the official MCP SDK) or fastmcp (npm fastmcp, 2025-11-25 only); auto is native',
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
      'share state with other replicas through this Redis: rate limits, pseudonyms, the response cache, sessions, change notifications, the workspace, the live guard and tasks (env CLOUDG_MCP_REDIS_URL)',
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
  addLayerAndLogOptions(serve).action(async (flags: ServeFlags) => {
    const { serveCommand } = await import('../commands/serve.js');
    setExit(await serveCommand(flags, io));
  });
};
