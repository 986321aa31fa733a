/** Turning digest bytes into characters of a given alphabet. */
import { createHash } from 'node:crypto';

/** At least `n` pseudo-random bytes: the digest, extended with SHA-256(digest | counter) blocks. */
export function stretch(digest: Buffer, n: number): Buffer {
  if (digest.length >= n) return digest;
  const parts = [digest];
  let have = digest.length;
  for (let i = 0; have < n; i++) {
    const block = createHash('sha256').update(digest).update(String(i)).digest();
    parts.push(block);
    have += block.length;
  }
  return Buffer.concat(parts);
}

export function hexChars(digest: Buffer, n: number): string {
  const hex = stretch(digest, Math.ceil(n / 2)).toString('hex', 0, Math.ceil(n / 2));
  return n % 2 === 0 ? hex : hex.slice(0, n);
}

/**
 * `n` decimal digits. The first is non-zero unless `leadingZero`; the small modulo bias is
 * irrelevant for pseudonyms.
 */
export function digitChars(digest: Buffer, n: number, leadingZero: boolean): string {
  const bytes = stretch(digest, n);
  let out = leadingZero ? '0' : String(1 + (bytes[0]! % 9));
  for (let i = 1; i < n; i++) out += String(bytes[i]! % 10);
  return n === 0 ? '' : out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Chars(digest: Buffer, n: number): string {
  const bytes = stretch(digest, n);
  let out = '';
  for (let i = 0; i < n; i++) out += BASE32[bytes[i]! & 31];
  return out;
}
