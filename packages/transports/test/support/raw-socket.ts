/** Bytes straight onto a TCP socket, for requests no HTTP client would send. */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before closing (or before `waitMs` ran out). */
  text: string;
  /** Status of the first response, or 0 when none came. */
  status: number;
  /** Whether the server closed the connection. */
  closed: boolean;
}

export interface RawOptions {
  /** Half-close our side after writing (the server sees end of input). */
  end?: boolean;
  /** Give up waiting after this long; the exchange is returned as it stands. Default 2000 ms. */
  waitMs?: number;
  /** Called once connected, with the socket, to write in steps or destroy it midway. */
  drive?: (socket: Socket) => void | Promise<void>;
}

export function rawExchange(port: number, data: Array<string | Buffer>, options: RawOptions = {}) {
  return new Promise<RawExchange>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      socket.destroy();
      resolve({ text, status, closed });
    };
    const timer = setTimeout(finish, options.waitMs ?? 2000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => {
      // A reset after the server answered is a clean refusal; the close handler reports it.
    });
    socket.on('connect', async () => {
      try {
        for (const chunk of data) socket.write(chunk);
        if (options.end) socket.end();
        await options.drive?.(socket);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The JSON body after the header block of a raw response. */
export function rawBody(text: string): unknown {
  const start = text.indexOf('\r\n\r\n');
  return JSON.parse(text.slice(start + 4));
}
