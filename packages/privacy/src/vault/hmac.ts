/**
 * HMAC-SHA256 (RFC 2104) computed with Node's one-shot `crypto.hash` over preallocated
 * buffers. `createHmac` costs a JS object with a native handle and a fresh Buffer per call;
 * with hundreds of thousands of pseudonyms per pass on a large heap, that garbage dominated
 * the vault's cost. The result is bit-for-bit the standard HMAC (the tests compare it with
 * `createHmac`). Where `crypto.hash` is missing (Node before 20.12), `createHmac` is used.
 */
import * as crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string | Uint8Array, outputEncoding: 'hex' | 'latin1') => string;
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

const BLOCK = 64;

export class HmacSha256 {
  private readonly key: Buffer;
  private inner: Buffer;
  private readonly outer: Buffer;
  /** Views of `inner` by length, so hashing allocates no typed array per call. */
  private views: Buffer[] = [];

  /** `key` of at most 64 bytes (the vault's sub-keys are 32). */
  constructor(key: Uint8Array) {
    if (key.length > BLOCK) throw new RangeError('HMAC key longer than one block');
    this.key = Buffer.from(key);
    this.inner = HmacSha256.padded(this.key, 0x36, 1024);
    this.outer = HmacSha256.padded(this.key, 0x5c, 32);
  }

  private static padded(key: Buffer, pad: number, room: number): Buffer {
    const buf = Buffer.alloc(BLOCK + room);
    for (let i = 0; i < BLOCK; i++) buf[i] = (key[i] ?? 0) ^ pad;
    return buf;
  }

  /**
   * HMAC-SHA256 of the UTF-8 message `head + tail`, as 64 hex characters. Taking the message
   * in two parts spares callers a string concatenation per call.
   */
  hex(head: string, tail = ''): string {
    if (!oneShot)
      return crypto.createHmac('sha256', this.key).update(head, 'utf8').update(tail, 'utf8').digest('hex');
    // A UTF-16 code unit never needs more than 3 UTF-8 bytes.
    const room = (head.length + tail.length) * 3;
    if (this.inner.length < BLOCK + room) {
      this.inner = HmacSha256.padded(this.key, 0x36, room + 1024);
      this.views = [];
    }
    let n = this.inner.write(head, BLOCK, 'utf8');
    if (tail !== '') n += this.inner.write(tail, BLOCK + n, 'utf8');
    let view = this.views[n];
    if (!view) {
      view = this.inner.subarray(0, BLOCK + n);
      if (n < 4096) this.views[n] = view;
    }
    const innerDigest = oneShot('sha256', view, 'latin1');
    this.outer.write(innerDigest, BLOCK, 'latin1');
    return oneShot('sha256', this.outer, 'hex');
  }
}

/** SHA-256 of a string, hex (used to stretch a digest when a format needs more bytes). */
export function sha256Hex(data: string): string {
  return oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}
