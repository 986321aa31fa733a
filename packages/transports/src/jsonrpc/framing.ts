/**
 * Newline framing for stdio: one compact JSON message per line. JSON.stringify never emits a raw
 * newline, so a line is always a whole message.
 */

export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into lines (without `\n` or a trailing `\r`), blank ones included. The byte
 * 0x0A never occurs inside a multi-byte UTF-8 character, so every line holds whole characters.
 * Only each new chunk is searched and the pieces of an unfinished line are joined once, so a line
 * of many megabytes costs time in proportion to its length.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** In a line that outgrew the limit: drop bytes up to its newline. */
  private skipping = false;

  /**
   * @param maxLineBytes lines longer than this are dropped as they arrive (never buffered whole)
   *   and reported through `onOversize` once each. Default: no limit.
   */
  constructor(
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
    private readonly onOversize: () => void = () => {},
  ) {}

  push(chunk: Buffer | string): Buffer[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, start)) {
      if (this.skipping) this.skipping = false;
      else if (this.pendingBytes + (nl - start) > this.maxLineBytes) this.onOversize();
      else {
        const piece = bytes.subarray(start, nl);
        lines.push(withoutCr(this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece])));
      }
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < bytes.length && !this.skipping) {
      this.pending.push(bytes.subarray(start));
      this.pendingBytes += bytes.length - start;
      if (this.pendingBytes > this.maxLineBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skipping = true;
        this.onOversize();
      }
    }
    return lines;
  }

  /** Whatever is left at end of input, if anything. */
  end(): Buffer[] {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    return rest.length === 0 ? [] : [withoutCr(rest)];
  }
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line;
}

/** Splits a byte stream into text lines; multi-byte characters split across chunks are kept whole. */
export class LineDecoder {
  private readonly splitter = new LineSplitter();

  /** The complete, non-blank lines in this chunk (without `\n` or a trailing `\r`). */
  push(chunk: Buffer | string): string[] {
    return textLines(this.splitter.push(chunk));
  }

  /** Whatever is left at end of input, if it is not blank. */
  end(): string[] {
    return textLines(this.splitter.end());
  }
}

function textLines(lines: Buffer[]): string[] {
  return lines.map((line) => line.toString('utf8')).filter((line) => line.trim() !== '');
}
