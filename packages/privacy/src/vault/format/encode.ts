/**
 * Turning a digest (64 hex characters) into characters of a given alphabet. Digests stay hex
 * strings end to end: no Buffer is allocated per pseudonym.
 */
import { sha256Hex } from '../hmac.js';

/** At least `n` bytes of hex: the digest, extended with SHA-256(digest | counter) blocks. */
export function stretch(digest: string, n: number): string {
  let out = digest;
  for (let i = 0; out.length < 2 * n; i++) out += sha256Hex(`${digest}:${i}`);
  return out;
}

function nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/** Byte `i` of a hex string. */
export function byteAt(hex: string, i: number): number {
  return (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
}

/** The first `n` bytes of a hex string as a byte array. */
export function bytesOf(hex: string, n: number): Uint8Array {
  const h = stretch(hex, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = byteAt(h, i);
  return out;
}

export function hexChars(digest: string, n: number): string {
  return stretch(digest, Math.ceil(n / 2)).slice(0, n);
}

/**
 * `n` decimal digits. The first is non-zero unless `leadingZero`; the small modulo bias is
 * irrelevant for pseudonyms.
 */
export function digitChars(digest: string, n: number, leadingZero: boolean): string {
  if (n === 0) return '';
  const h = stretch(digest, n);
  let out = leadingZero ? '0' : String(1 + (byteAt(h, 0) % 9));
  for (let i = 1; i < n; i++) out += String(byteAt(h, i) % 10);
  return out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Chars(digest: string, n: number): string {
  const h = stretch(digest, n);
  let out = '';
  for (let i = 0; i < n; i++) out += BASE32[byteAt(h, i) & 31];
  return out;
}
