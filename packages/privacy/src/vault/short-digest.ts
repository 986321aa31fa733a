/**
 * A short keyed digest for stores that hold one per mapping (the shared vault's lookup keys):
 * SHA3-256 over the 32-byte key followed by the message, truncated to 22 base64url characters
 * (132 bits). SHA-3 has no length extension, so the key prefix alone makes it a keyed PRF (the
 * construction NIST's KMAC builds on); it costs one native hash call where HMAC-SHA256 takes
 * two, which matters at thousands of digests per cold strict page. 132 bits leave no collision
 * a vault's mappings could meet, and a third of the bytes of a 64-hex digest go to Redis.
 */
import * as crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'base64url') => string;
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

const KEY_BYTES = 32;
const CHARS = 22;

export class ShortDigest {
  /** The key, then room for the message: written in place, so a digest allocates no buffer. */
  private buf: Buffer;
  /** Views of `buf` by message length. */
  private views: Buffer[] = [];

  constructor(private readonly key: Uint8Array) {
    if (key.length !== KEY_BYTES) throw new RangeError('short digest key must be 32 bytes');
    this.buf = ShortDigest.withKey(key, 1024);
  }

  private static withKey(key: Uint8Array, room: number): Buffer {
    const buf = Buffer.alloc(KEY_BYTES + room);
    buf.set(key, 0);
    return buf;
  }

  /** The digest of the UTF-8 `text`, 22 base64url characters. */
  of(text: string): string {
    if (!oneShot) {
      return crypto
        .createHash('sha3-256')
        .update(this.key)
        .update(text, 'utf8')
        .digest('base64url')
        .slice(0, CHARS);
    }
    // A UTF-16 code unit never needs more than 3 UTF-8 bytes.
    if (this.buf.length < KEY_BYTES + text.length * 3) {
      this.buf = ShortDigest.withKey(this.key, text.length * 3 + 1024);
      this.views = [];
    }
    const n = this.buf.write(text, KEY_BYTES, 'utf8');
    let view = this.views[n];
    if (!view) {
      view = this.buf.subarray(0, KEY_BYTES + n);
      if (n < 4096) this.views[n] = view;
    }
    return oneShot('sha3-256', view, 'base64url').slice(0, CHARS);
  }
}
