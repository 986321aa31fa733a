/**
 * A transport wrapper for fastmcp sessions whose server cloudg can only reach once fastmcp
 * announces the session, which `FastMCP.connect` does after the `initialize` handshake. The gate
 * lets the handshake through, holds every later message until cloudg's handlers are in place, and
 * then delivers them in order, so no request is ever answered without them. It also:
 *
 * - adds the capabilities of what cloudg serves to the `initialize` result (the SDK answers the
 *   handshake before cloudg can declare them on the server);
 * - answers a 2026-07-28 request (`server/discover`, or any request with a 2026 envelope) with the
 *   protocol's unsupported-version error, -32022 naming the one version served: fastmcp runs on
 *   the 1.x SDK, which speaks only the handshake era, and would otherwise answer `server/discover`
 *   with "Method not found" and an enveloped request as if it were a handshake-era one.
 */
import { ErrorCode } from '@cloudg/core';
import { LATEST_HANDSHAKE_VERSION } from '@cloudg/transports';

/** The parts of a 1.x SDK transport the gate uses and provides (structurally the same in 2.x). */
export interface GatedMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}
export interface WrappedTransport {
  start(): Promise<void>;
  send(message: GatedMessage, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: GatedMessage, extra?: unknown) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
}

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const PASS_BEFORE_OPEN = new Set(['initialize', 'notifications/initialized', 'ping']);

/** The version a request's 2026 envelope asks for, or undefined for a handshake-era request. */
export function envelopeVersionOf(message: GatedMessage): string | undefined {
  if (message.method === 'server/discover') {
    const asked = (message.params?._meta as Record<string, unknown> | undefined)?.[VERSION_KEY];
    return typeof asked === 'string' ? asked : '2026-07-28';
  }
  const asked = (message.params?._meta as Record<string, unknown> | undefined)?.[VERSION_KEY];
  return typeof asked === 'string' ? asked : undefined;
}

/** The JSON-RPC error for a request in an era this server does not speak. */
export function unsupportedVersionError(id: string | number | null, requested: string) {
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: `Unsupported protocol version: ${requested}`,
      data: { supported: [LATEST_HANDSHAKE_VERSION], requested },
    },
  };
}

export class HandshakeGate implements WrappedTransport {
  onmessage?: ((message: GatedMessage, extra?: unknown) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  private open = false;
  private readonly held: [GatedMessage, unknown][] = [];
  private readonly initializeIds = new Set<string | number>();

  constructor(
    private readonly inner: WrappedTransport,
    private readonly capabilities: Record<string, unknown>,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  /** cloudg's handlers are installed: deliver what was held, then everything as it comes. */
  release(): void {
    this.open = true;
    for (const [message, extra] of this.held.splice(0)) this.onmessage?.(message, extra);
  }

  async send(message: GatedMessage, options?: unknown): Promise<void> {
    if (
      message.id !== undefined &&
      message.id !== null &&
      this.initializeIds.delete(message.id) &&
      message.result
    ) {
      const result = message.result;
      const declared = (result.capabilities ?? {}) as Record<string, Record<string, unknown>>;
      const merged: Record<string, Record<string, unknown>> = { ...declared };
      for (const [key, value] of Object.entries(this.capabilities)) {
        merged[key] = { ...(declared[key] ?? {}), ...(value as Record<string, unknown>) };
      }
      return this.inner.send({ ...message, result: { ...result, capabilities: merged } }, options);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: GatedMessage, extra: unknown): void {
    const isRequest = message.method !== undefined && message.id !== undefined;
    const requested = isRequest ? envelopeVersionOf(message) : undefined;
    if (isRequest && requested !== undefined) {
      this.inner.send(unsupportedVersionError(message.id ?? null, requested)).catch((error: unknown) => {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      });
      return;
    }
    if (message.method === 'initialize' && message.id !== undefined && message.id !== null) {
      this.initializeIds.add(message.id);
    }
    if (this.open || message.method === undefined || PASS_BEFORE_OPEN.has(message.method)) {
      this.onmessage?.(message, extra);
      return;
    }
    this.held.push([message, extra]);
  }
}
