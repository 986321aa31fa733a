/** `call` and `read`: one tool call or resource read in-process, through the full layer. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  isMcpLayerError,
  isPlainObject,
  type Logger,
  type Principal,
  resourceContentsToWire,
} from '@cloudg/core';
import { createLayerFromOptions } from '@cloudg/server';
import { type RequestOutcome, requestOutcome } from '@cloudg/transports';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../io.js';
import type { LayerFlags } from '../layer-flags.js';
import { layerOptionsFrom, principalFrom } from '../options.js';

/** `--args`: a JSON object literal, `@path/to.json`, or `-` for stdin. */
export async function readArgs(value: string | undefined, io: CliIo): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text: string;
  if (value === '-') text = await io.readStdin();
  else if (value.startsWith('@')) {
    try {
      text = await readFile(resolve(io.cwd, value.slice(1)), 'utf8');
    } catch {
      throw new CliError('Invalid value for --args: the file cannot be read', 2);
    }
  } else text = value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError('Invalid value for --args: not valid JSON', 2);
  }
  if (!isPlainObject(parsed)) throw new CliError('Invalid value for --args: expected a JSON object', 2);
  return parsed;
}

/**
 * The DEBUG request line a server writes for each request (see @cloudg/transports), for the one
 * request this command makes: method, target, principal id, outcome and duration, no arguments.
 */
function logRequest(
  logger: Logger,
  method: 'tools/call' | 'resources/read',
  target: { tool: string } | { uri: string },
  principal: Principal,
  outcome: RequestOutcome,
  started: number,
): void {
  if (!logger.isLevelEnabled('debug')) return;
  const name = 'tool' in target ? target.tool : target.uri;
  logger.debug(
    {
      event: 'mcp.request',
      method,
      ...target,
      principal: principal.id,
      outcome,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      transport: 'cli',
    },
    `${method} ${name} ${outcome}`,
  );
}

export type CallFlags = LayerFlags & { args?: string; raw?: boolean };

export async function callCommand(tool: string, flags: CallFlags, io: CliIo): Promise<number> {
  const args = await readArgs(flags.args, io);
  const server = await createLayerFromOptions(await layerOptionsFrom(flags, io));
  try {
    const onProgress = io.stderrIsTTY
      ? (progress: number, total: number | undefined, message: string | undefined) =>
          io.stderr(
            `\r${total ? `${progress}/${total}` : String(progress)}${message ? ` ${message}` : ''}\x1b[K`,
          )
      : undefined;
    let result: Awaited<ReturnType<typeof server.layer.callTool>>;
    const principal = principalFrom(flags);
    const started = performance.now();
    try {
      result = await server.layer.callTool(tool, args, {
        principal,
        ...(onProgress ? { onProgress } : {}),
      });
    } catch (error) {
      logRequest(server.layer.logger, 'tools/call', { tool }, principal, requestOutcome(error), started);
      if (isMcpLayerError(error)) throw new CliError(error.message);
      throw error;
    }
    logRequest(
      server.layer.logger,
      'tools/call',
      { tool },
      principal,
      result.isError ? 'error' : 'ok',
      started,
    );
    if (onProgress) io.stderr('\r\x1b[K');
    if (flags.raw) io.stdout(`${JSON.stringify(result.toWire(), null, 2)}\n`);
    else if (result.structured !== undefined && !result.isError)
      io.stdout(`${JSON.stringify(result.structured, null, 2)}\n`);
    else {
      for (const block of result.content) if (block.type === 'text') io.stdout(`${block.text}\n`);
    }
    return result.isError ? 1 : 0;
  } finally {
    server.close();
  }
}

export async function readCommand(uri: string, flags: LayerFlags, io: CliIo): Promise<number> {
  const server = await createLayerFromOptions(await layerOptionsFrom(flags, io));
  try {
    let contents: Awaited<ReturnType<typeof server.layer.readResource>>;
    const principal = principalFrom(flags);
    const started = performance.now();
    try {
      contents = await server.layer.readResource(uri, { principal });
    } catch (error) {
      logRequest(server.layer.logger, 'resources/read', { uri }, principal, requestOutcome(error), started);
      if (isMcpLayerError(error)) throw new CliError(error.message);
      throw error;
    }
    logRequest(server.layer.logger, 'resources/read', { uri }, principal, 'ok', started);
    for (const item of contents) {
      if ('text' in item) io.stdout(item.text.endsWith('\n') ? item.text : `${item.text}\n`);
      else io.stdout(`${JSON.stringify(resourceContentsToWire(item), null, 2)}\n`);
    }
    return 0;
  } finally {
    server.close();
  }
}
