/**
 * A Server-Sent Events response: `event: message` frames, `: keepalive` comments while idle, and
 * the headers that keep proxies from buffering.
 */
import type { ServerResponse } from 'node:http';
import { SERVER_HEADER } from './responses.js';

const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

export class SseStream {
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    keepaliveMs: number,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(200, { ...headers, Server: SERVER_HEADER, ...SSE_HEADERS });
    // Headers go out at once, but corked until the next turn of the event loop: a quick answer then
    // leaves in one write with its frame and the final chunk (end() uncorks). Only an answer still
    // open by then needs keepalive comments, so the timer starts there too.
    res.cork();
    res.flushHeaders();
    setImmediate(() => {
      if (res.writableEnded) return;
      res.uncork();
      if (keepaliveMs > 0 && !this.closed) this.startKeepalive(keepaliveMs);
    });
  }

  private startKeepalive(keepaliveMs: number): void {
    this.timer = setInterval(() => this.comment('keepalive'), keepaliveMs);
    this.timer.unref();
    this.res.on('close', () => this.stop());
  }

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  /**
   * One message frame (a JSON-RPC message, or any string for named events); `id` is the event id
   * a client sends back as `Last-Event-ID` to resume.
   */
  send(data: unknown, event = 'message', id?: string): void {
    if (this.closed) return;
    this.res.write(frame(data, event, id));
  }

  comment(text: string): void {
    if (!this.closed) this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    if (this.ended) return;
    this.stop();
    this.ended = true;
    if (this.res.writableEnded || this.res.destroyed) return;
    // Uncorked before end(): on Node 22, end() on a corked response writes the closing empty chunk
    // ahead of the corked frames, which then follow the finished response (clients fail with
    // "Expected HTTP/", or wait for an answer that never comes). Headers and frames still leave in
    // one write.
    while (this.res.writableCorked > 0) this.res.uncork();
    this.res.end();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function frame(data: unknown, event: string, id: string | undefined): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${text}\n\n`;
}
