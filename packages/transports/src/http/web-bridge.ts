/**
 * A Web-standard `Request` served by the `node:http` handler, answered as a `Response`. The
 * handler only uses a small part of `IncomingMessage` and `ServerResponse` (headers, a body
 * stream, `writeHead`/`write`/`end`, `close` events), so this module provides exactly that part
 * instead of a second implementation of the protocol: whatever the way in, the bytes come from
 * the same code. The response resolves when the head is written; an SSE body keeps streaming, and
 * a consumer that cancels it (the client went away) closes the response as a dropped socket does.
 */

import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** HTTP statuses whose responses have no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function requestStream(request: Request): IncomingMessage {
  const body = request.body
    ? Readable.fromWeb(request.body as unknown as import('node:stream/web').ReadableStream<Uint8Array>)
    : Readable.from([]);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  // A Web Request carries no Host header (fetch forbids setting it); its URL names the host, and
  // the Host check of the guard needs one.
  headers.host ??= url.host;
  return Object.assign(body, {
    headers,
    method: request.method,
    url: `${url.pathname}${url.search}`,
    // Read by the handler only to tell whether the peer already hung up.
    socket: { writableEnded: false, remoteAddress: undefined },
  }) as unknown as IncomingMessage;
}

/** The writable half: collects the head, then streams the body into a `ReadableStream`. */
class BridgeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  writableCorked = 0;
  private readonly headers = new Map<string, string | string[]>();
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly pending: Uint8Array[] = [];
  private readonly encoder = new TextEncoder();
  private finished = false;

  constructor(private readonly resolve: (response: Response) => void) {
    super();
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), Array.isArray(value) ? [...value] : String(value));
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers.get(name.toLowerCase());
  }

  writeHead(status: number, headers?: OutgoingHttpHeaders): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value !== undefined) this.setHeader(name, Array.isArray(value) ? value : String(value));
    }
    return this;
  }

  flushHeaders(): void {
    this.commit();
  }

  cork(): void {
    this.writableCorked++;
  }

  uncork(): void {
    if (this.writableCorked > 0) this.writableCorked--;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.commit();
    this.push(typeof chunk === 'string' ? this.encoder.encode(chunk) : chunk);
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this;
    if (chunk !== undefined && chunk !== '') this.write(chunk);
    this.commit();
    this.writableEnded = true;
    this.finish();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.commit();
    try {
      this.controller?.error(new Error('response destroyed'));
    } catch {
      // Already closed.
    }
    this.finish();
    return this;
  }

  private push(bytes: Uint8Array): void {
    if (this.controller) this.controller.enqueue(bytes);
    else this.pending.push(bytes);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    try {
      this.controller?.close();
    } catch {
      // Cancelled by the consumer, or errored by destroy().
    }
    queueMicrotask(() => this.emit('close'));
  }

  /** Hand the `Response` over once: status, headers, and a body that streams what follows. */
  private commit(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const headers = new Headers();
    for (const [name, value] of this.headers) {
      if (name === 'content-length' || name === 'connection') continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    if (NO_BODY.has(this.statusCode)) {
      this.resolve(new Response(null, { status: this.statusCode, headers }));
      return;
    }
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        for (const bytes of this.pending.splice(0)) controller.enqueue(bytes);
        if (this.finished && !this.destroyed) controller.close();
      },
      cancel: () => {
        // The consumer stopped reading: as a closed socket, end whatever streams here.
        this.destroyed = true;
        this.finished = true;
        this.emit('close');
      },
    });
    this.resolve(new Response(body, { status: this.statusCode, headers }));
  }
}

/** Serve `request` with a `node:http` style handler. */
export function serveWebRequest(
  request: Request,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const res = new BridgeResponse(resolve);
    handle(requestStream(request), res as unknown as ServerResponse).then(
      () => {
        // A handler that returned without answering (it should not) still gets an end.
        if (!res.headersSent) res.end();
      },
      (error: unknown) => {
        if (!res.headersSent) reject(error);
        else res.destroy();
      },
    );
  });
}
