/**
 * MCP over stdio (MCP.md 6.1): newline-delimited JSON-RPC on stdin and stdout, one session, one
 * writer, requests served concurrently, and a grace period for requests in flight at end of input.
 */
import type { Readable } from 'node:stream';
import { ErrorCode, type Layer, type Principal } from '@cloudg/core';
import { type PrincipalResolver, RequestInfo, resolvePrincipal } from '../auth/principal-resolver.js';
import { parseError } from '../jsonrpc/errors.js';
import { LineSplitter } from '../jsonrpc/framing.js';
import { errorResponse } from '../jsonrpc/messages.js';
import { decodeUtf8 } from '../jsonrpc/parse-json.js';
import { MessageSequencer } from '../protocol/sequencer.js';
import { McpProtocolServer, type ProtocolOptions } from '../protocol/server.js';
import { writableForFd } from './fd-writer.js';
import { LineWriter, type WritableLike } from './line-writer.js';
import { protectStdout } from './protect-stdout.js';

export interface StdioOptions extends ProtocolOptions {
  /** Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Default the real stdout, protected (see `protectStdout`). */
  stdout?: WritableLike;
  /**
   * Write protocol messages to this inherited descriptor instead of stdout (see `writableForFd`).
   * Descriptor 1 is then left alone, so it should already point somewhere harmless, such as stderr.
   */
  stdoutFd?: number;
  /** The caller; by default the resolver's answer, which is `Principal.local()` on stdio. */
  principal?: Principal;
  principalResolver?: PrincipalResolver;
  /** Redirect `process.stdout.write` to stderr while serving. Default true when writing to the real stdout. */
  protectStdout?: boolean;
  /** How long requests in flight at end of input may still run. Default 5000 ms. */
  shutdownGraceMs?: number;
  /**
   * Longest accepted line in bytes; a longer one is dropped as it arrives and answered with
   * -32600 "Request too large". Default 64 MiB.
   */
  maxLineBytes?: number;
  /** Share a protocol server (its listen streams and change fan-out) instead of making one. */
  protocol?: McpProtocolServer;
  /**
   * Stop serving when this aborts (a signal, an embedding application shutting down): input stops
   * being read and the end-of-input path follows, grace period included.
   */
  signal?: AbortSignal;
  /**
   * Handshake-era clients only: ask the client for its roots (`roots/list`) once initialized and
   * on `notifications/roots/list_changed`, and hand the URIs over, e.g. to the catalog's
   * `Workspace.useClientRoots`. Nothing is asked of a client without the `roots` capability.
   */
  clientRoots?: (uris: string[]) => void;
}

/** Far above any real request, low enough that one line cannot exhaust memory. */
const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Serve until stdin ends; resolves once in-flight work is done (or cancelled) and output is flushed. */
export async function serveStdio(layer: Layer<unknown>, options: StdioOptions = {}): Promise<void> {
  const protocol = options.protocol ?? new McpProtocolServer(layer, options);
  const stdin = options.stdin ?? process.stdin;
  const fdOut =
    options.stdout === undefined && options.stdoutFd !== undefined
      ? writableForFd(options.stdoutFd)
      : undefined;
  const realStdout = options.stdout === undefined && fdOut === undefined;
  const guard = realStdout && options.protectStdout !== false ? protectStdout() : undefined;
  const out: WritableLike = options.stdout ?? fdOut ?? guard ?? process.stdout;
  const writer = new LineWriter(out);
  // A client that goes away mid-write (EPIPE) must not crash the process; the writer stops instead.
  const onStdoutError = (error: unknown) => layer.logger.debug({ err: error }, 'stdout closed');
  if (realStdout) process.stdout.on('error', onStdoutError);
  const principal =
    options.principal ??
    (await resolvePrincipal(options.principalResolver, new RequestInfo({ transport: 'stdio' }), (error) =>
      layer.logger.warn({ err: error }, 'principal resolver failed'),
    ));
  const session = protocol.createSession({
    transport: 'stdio',
    principal,
    send: (m) => writer.send(m),
    ...(options.clientRoots === undefined ? {} : { clientRoots: options.clientRoots }),
  });
  const sequencer = new MessageSequencer();
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const splitter = new LineSplitter(maxLineBytes, () =>
    writer.send(
      errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: 'Request too large',
        data: { limit: maxLineBytes },
      }),
    ),
  );

  const accept = (line: Buffer) => {
    let message: unknown;
    try {
      const text = decodeUtf8(line);
      if (text.trim() === '') return;
      message = JSON.parse(text);
    } catch {
      writer.send(errorResponse(null, parseError().toJsonRpc()));
      return;
    }
    sequencer.submit(message, async () => {
      try {
        const result = await session.handle(message);
        if (result !== undefined) writer.send(result);
      } catch (error) {
        layer.logger.error({ err: error }, 'stdio message failed');
      }
    });
  };

  let detachStop = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer | string) => {
        for (const line of splitter.push(chunk)) accept(line);
      };
      stdin.on('data', onData);
      stdin.once('end', () => {
        for (const line of splitter.end()) accept(line);
        resolve();
      });
      stdin.once('close', () => resolve());
      stdin.once('error', reject);
      const stop = options.signal;
      if (!stop) return;
      const onStop = () => {
        // No more input is read; what was accepted finishes within the grace period below. A
        // destroyed stdin no longer keeps the process alive.
        stdin.off('data', onData);
        const destroy = (stdin as Partial<Readable>).destroy;
        if (typeof destroy === 'function') destroy.call(stdin);
        else stdin.pause();
        resolve();
      };
      if (stop.aborted) onStop();
      else {
        stop.addEventListener('abort', onStop, { once: true });
        detachStop = () => stop.removeEventListener('abort', onStop);
      }
    });
  } finally {
    detachStop();
    // End of input: listen streams end gracefully, the rest gets the grace period, then is cancelled.
    session.endListens();
    const finished = await sequencer.drain(options.shutdownGraceMs ?? 5000);
    if (!finished) {
      session.cancelAll();
      await sequencer.drain(1000);
    }
    session.close();
    if (!options.protocol) protocol.close();
    await writer.flush();
    if (fdOut) {
      // Ends once the data is out; a client that already went away must not hold the exit up.
      await new Promise<void>((resolve) => {
        setTimeout(resolve, 1000).unref();
        fdOut.end(() => resolve());
      });
    }
    guard?.restore();
    process.stdout.off('error', onStdoutError);
  }
}
