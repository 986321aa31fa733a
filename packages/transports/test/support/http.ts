/** Raw HTTP against a real listening server, with full control over every header (Host included). */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
  /** The `data:` payloads of `event: message` frames, parsed. */
  events(): unknown[];
}

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Stop reading after this many SSE frames (for streams that stay open). */
  frames?: number;
  /** Called once the response headers arrived (to trigger events while a stream is open). */
  onOpen?: () => void;
  /** Called with the body read so far, after every chunk. */
  onData?: (text: string) => void;
}

export function send(port: number, options: RawRequest = {}): Promise<RawResponse> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    host: `127.0.0.1:${port}`,
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers,
        setHost: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text),
            events: () => parseEvents(text),
          });
        res.on('data', (chunk: string) => {
          text += chunk;
          options.onData?.(text);
          if (options.frames !== undefined && parseEvents(text, true).length >= options.frames) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', () => done());
        options.onOpen?.();
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Frames of an SSE body; with `all`, every frame (endpoint events too), else `message` data parsed. */
export function parseEvents(text: string, all = false): unknown[] {
  const out: unknown[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    if (data === undefined) continue;
    if (all) out.push({ event, data });
    else if (event === 'message') out.push(JSON.parse(data));
  }
  return out;
}

export const JSON_AND_SSE = { accept: 'application/json, text/event-stream' };
