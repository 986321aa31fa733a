/**
 * A writer for the protocol stream on an inherited file descriptor. `cloudg-mcp serve` relaunches
 * itself with descriptor 1 pointed at stderr and the client's stdout handed over as another
 * descriptor, so nothing but the server's own writer can reach the protocol stream: not
 * `fs.writeSync(1, ...)`, not a native addon, not a child process that inherits stdout.
 */
import { createWriteStream, fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import { isatty, WriteStream as TtyWriteStream } from 'node:tty';
import type { WritableLike } from './line-writer.js';

export interface FdWriter extends WritableLike {
  /** Flush and close the stream (the descriptor is not ours to keep open past the server). */
  end(callback?: () => void): unknown;
}

/** A writable stream over `fd`, of the kind its file type needs: socket or pipe, terminal, file. */
export function writableForFd(fd: number): FdWriter {
  const stat = fstatSync(fd);
  let stream: FdWriter & NodeJS.EventEmitter;
  if (stat.isSocket() || stat.isFIFO()) stream = new Socket({ fd, readable: false, writable: true });
  else if (isatty(fd)) stream = new TtyWriteStream(fd);
  else stream = createWriteStream('', { fd, autoClose: false });
  // A client that goes away (EPIPE) must not crash the server: the write callback reports it.
  stream.on('error', () => {});
  return stream;
}
