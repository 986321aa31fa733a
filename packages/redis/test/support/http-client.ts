/**
 * A bare MCP-over-HTTP client for the replica tests: raw requests with every header under
 * control, and standalone SSE streams read as their frames arrive (with their event ids).
 */
import { type ClientRequest, request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** POST, GET or DELETE on /mcp; resolves with the status and the parsed body (JSON or the SSE messages). */
export function call(
  port: number,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: init.method ?? 'POST',
        path: '/mcp',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const type = String(res.headers['content-type'] ?? '');
          const parsed = type.includes('json')
            ? JSON.parse(text)
            : type.includes('event-stream')
              ? frames(text).map((f) => f.data)
              : text;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface Frame {
  id: string | undefined;
  data: unknown;
}

function frames(text: string): Frame[] {
  const out: Frame[] = [];
  for (const block of text.split('\n\n')) {
    let id: string | undefined;
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (data !== undefined) out.push({ id, data: JSON.parse(data) });
  }
  return out;
}

/** A standalone GET stream, read as it arrives. */
export class Stream {
  readonly frames: Frame[] = [];
  status = 0;
  ended = false;
  private text = '';
  private req: ClientRequest | undefined;
  private waiters: (() => void)[] = [];

  /** GET the session's stream, or POST `body` (a listen request) and read its stream. */
  static open(port: number, headers: Record<string, string>, body?: unknown): Promise<Stream> {
    const stream = new Stream();
    const text = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      stream.req = request(
        {
          host: '127.0.0.1',
          port,
          method: text === undefined ? 'GET' : 'POST',
          path: '/mcp',
          headers: {
            accept: 'text/event-stream',
            ...(text === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
        },
        (res) => {
          stream.status = res.statusCode ?? 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            stream.text += chunk;
            const cut = stream.text.lastIndexOf('\n\n');
            if (cut >= 0) {
              stream.frames.push(...frames(stream.text.slice(0, cut + 2)));
              stream.text = stream.text.slice(cut + 2);
            }
            stream.wake();
          });
          const end = () => {
            stream.ended = true;
            stream.wake();
          };
          res.on('end', end);
          res.on('close', end);
          res.on('error', end);
          resolve(stream);
        },
      );
      stream.req.on('error', (error) => {
        if (stream.status === 0) reject(error);
      });
      if (text !== undefined) stream.req.write(text);
      stream.req.end();
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /**
   * Wait until `test` holds for the frames so far (or the stream ended), at most `ms`. The bound
   * is generous because it only matters when the awaited frame never comes: under a full
   * parallel suite on two cores a pub/sub hop alone has taken over a second.
   */
  async until(test: (frames: Frame[]) => boolean, ms = 15_000): Promise<Frame[]> {
    const deadline = Date.now() + ms;
    while (!test(this.frames) && !this.ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames;
  }

  /** The messages received, without their ids. */
  get messages(): Record<string, unknown>[] {
    return this.frames.map((f) => f.data as Record<string, unknown>);
  }

  close(): void {
    this.req?.destroy();
  }
}
