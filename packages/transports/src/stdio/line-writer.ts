/** The one writer of a stdio connection: messages are queued and written whole, one at a time. */
import { encodeLine } from '../jsonrpc/framing.js';

export interface WritableLike {
  write(text: string, callback: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export class LineWriter {
  private chain: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(private readonly out: WritableLike) {}

  /** Queue one message; writes never interleave. */
  send(message: unknown): void {
    const line = encodeLine(message);
    this.chain = this.chain.then(() => this.write(line));
  }

  /** Resolves when everything queued so far has been written. */
  flush(): Promise<void> {
    return this.chain;
  }

  private write(line: string): Promise<void> {
    if (this.failed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let drained = true;
      const ok = this.out.write(line, (error) => {
        // A failed stream never drains: settle now, or every later write and flush() would wait forever.
        if (error) this.failed = true;
        if (drained || error) resolve();
      });
      if (!ok) {
        drained = false;
        this.out.once('drain', () => resolve());
      }
    });
  }
}
