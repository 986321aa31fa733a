/**
 * Structural checks a token format allows beyond its shape: checksums (GitHub and npm tokens end
 * in a CRC32 of their random part), base64 payloads that must decode to something specific
 * (a JWT header, a Docker `user:password` pair, a Discord user id), and bech32 for `age` keys.
 * Each takes the candidate text and answers yes or no; none throws.
 */

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (IEEE) of the ASCII string `s`. */
export function crc32(s: string): number {
  let crc = -1;
  for (let i = 0; i < s.length; i++) crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ s.charCodeAt(i)) & 0xff]!;
  return (crc ^ -1) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` in base 62 (digits, upper case, lower case), left-padded with `0` to `width`. */
export function base62(n: number, width: number): string {
  let out = '';
  let v = n;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

/**
 * GitHub's token format (and npm's, which copies it): a prefix, 30 random base62 characters and
 * 6 characters of CRC32 of those 30, in base 62. `token` is the whole token; `prefix` its prefix.
 */
export function hasBase62Checksum(token: string, prefix: string): boolean {
  const body = token.slice(prefix.length);
  if (body.length !== 36) return false;
  return base62(crc32(body.slice(0, 30)), 6) === body.slice(30);
}

/** Upper-case letters, lower-case letters and digits all present, as in any long random token. */
export function mixedAlphanumeric(s: string): boolean {
  return /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s);
}

/** Decodes standard or URL-safe base64 (padding optional); null when it is not base64. */
export function decodeBase64(s: string): Buffer | null {
  if (s.length === 0 || s.length % 4 === 1) return null;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return null;
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** True when every byte is printable ASCII (space to `~`). */
function printable(b: Buffer): boolean {
  for (const byte of b) if (byte < 0x20 || byte > 0x7e) return false;
  return true;
}

/** Parses `raw` as a JSON object if it looks like one (braces at both ends); null otherwise. */
function jsonObject(raw: Buffer | null): object | null {
  if (raw === null || raw.length < 2 || raw[0] !== 0x7b || raw[raw.length - 1] !== 0x7d) return null;
  try {
    const v: unknown = JSON.parse(raw.toString('utf8'));
    return typeof v === 'object' && v !== null ? v : null;
  } catch {
    return null;
  }
}

/** A JWT's first segment: base64url of a JSON object naming an algorithm or a type. */
export function isJwtHeader(segment: string): boolean {
  const header = jsonObject(decodeBase64(segment));
  return header !== null && ('alg' in header || 'typ' in header);
}

/** The `auth` of a Docker `config.json`: base64 of `user:password`, printable, both non-empty. */
export function isBasicPair(b64: string): boolean {
  const raw = decodeBase64(b64);
  if (raw === null || raw.length < 3 || !printable(raw)) return false;
  const text = raw.toString('latin1');
  const colon = text.indexOf(':');
  return colon > 0 && colon < text.length - 1;
}

/** The first part of a Discord bot token: base64 of the bot's user id (a 17 to 20 digit snowflake). */
export function isSnowflakeBase64(segment: string): boolean {
  const raw = decodeBase64(segment);
  return raw !== null && /^\d{17,20}$/.test(raw.toString('latin1'));
}

/** Base64 of a JSON object: the payload of Grafana, 1Password and Sentry tokens. */
export function isBase64Json(b64: string): boolean {
  return jsonObject(decodeBase64(b64)) !== null;
}

/** Base64 whose decoded text starts with `start` (Bedrock keys: `BedrockAPIKey-`). */
export function decodesTo(b64: string, start: string): boolean {
  // Decode a whole number of base64 quanta covering `start`, so a partial tail does not matter.
  const need = Math.ceil(start.length / 3) * 4;
  const raw = decodeBase64(b64.slice(0, need));
  return raw?.toString('latin1').startsWith(start) === true;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/** A valid bech32 string (BIP 173 checksum), as `age` secret keys are. Case-insensitive. */
export function isBech32(s: string): boolean {
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) return false;
  let chk = 1;
  const step = (v: number) => {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GEN[i]!;
  };
  const hrp = lower.slice(0, sep);
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) >>> 5);
  step(0);
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) & 31);
  for (let i = sep + 1; i < lower.length; i++) {
    const v = BECH32.indexOf(lower[i]!);
    if (v === -1) return false;
    step(v);
  }
  return chk === 1;
}
