/**
 * Newline framing for stdio: one compact JSON message per line. JSON.stringify never emits a raw
 * newline, so a line is always a whole message.
 */
import { StringDecoder } from 'node:string_decoder';

export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/** Splits a byte stream into lines; multi-byte characters split across chunks are kept whole. */
export class LineDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';

  /** The complete, non-blank lines in this chunk (without `\n` or a trailing `\r`). */
  push(chunk: Buffer | string): string[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const lines: string[] = [];
    let start = 0;
    for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n', start)) {
      const line = this.buffer.slice(start, nl).replace(/\r$/, '');
      if (line.trim() !== '') lines.push(line);
      start = nl + 1;
    }
    this.buffer = this.buffer.slice(start);
    return lines;
  }

  /** Whatever is left at end of input, if it is not blank. */
  end(): string[] {
    const rest = (this.buffer + this.decoder.end()).replace(/\r$/, '');
    this.buffer = '';
    return rest.trim() === '' ? [] : [rest];
  }
}
