/** Reading a request body under a size cap (Content-Length or chunked). */
import type { IncomingMessage } from 'node:http';
import { McpLayerError } from '@cloudg/core';

/** A body above the cap (`data.limit` bytes); answered with 413. */
export class BodyTooLargeError extends McpLayerError {
  override readonly code = 'body_too_large';
  declare readonly data: { limit: number };

  constructor(readonly limit: number) {
    super('Request body too large', { data: { limit } });
  }
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        // Stop reading; the caller answers 413 and closes the connection.
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}
