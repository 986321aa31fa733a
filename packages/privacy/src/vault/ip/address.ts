/**
 * IPv4/IPv6 addresses as byte arrays: parsing, printing (RFC 5952 for IPv6), prefixes and the
 * special / private / public classification of section 12.2.
 */

export interface ParsedIp {
  /** 4 or 16 bytes. */
  bytes: Uint8Array;
  /** Prefix length when written as `addr/len`, else null. */
  prefix: number | null;
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string): Uint8Array | null {
  const m = V4.exec(text);
  if (!m) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const n = Number(m[i + 1]);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

const HEXGROUP = /^[0-9A-Fa-f]{1,4}$/;

function parseGroups(part: string, out: number[]): boolean {
  if (part === '') return true;
  for (const g of part.split(':')) {
    if (!HEXGROUP.test(g)) return false;
    out.push(Number.parseInt(g, 16));
  }
  return true;
}

function parseV6(text: string): Uint8Array | null {
  if (text.length < 2 || text.length > 45 || !text.includes(':')) return null;
  let body = text;
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.', lastColon)) {
    // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two hex groups.
    const v4 = parseV4(body.slice(lastColon + 1));
    if (!v4) return null;
    const hi = ((v4[0]! << 8) | v4[1]!).toString(16);
    const lo = ((v4[2]! << 8) | v4[3]!).toString(16);
    body = `${body.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head: number[] = [];
  const rest: number[] = [];
  if (!parseGroups(halves[0]!, head)) return null;
  if (halves.length === 2 && !parseGroups(halves[1]!, rest)) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    groups = [...head, ...rest];
    if (groups.length !== 8) return null;
  }
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** Parse `addr` or `addr/len`; null when the text is not an IP address or CIDR. */
export function parseIp(text: string): ParsedIp | null {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const bytes = addrText.includes(':') ? parseV6(addrText) : parseV4(addrText);
  if (!bytes) return null;
  if (slash < 0) return { bytes, prefix: null };
  const lenText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lenText)) return null;
  const prefix = Number(lenText);
  if (prefix > bytes.length * 8) return null;
  return { bytes, prefix };
}

export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // RFC 5952: compress the longest run (length >= 2) of zero groups, the first one on ties.
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export function getBit(bytes: Uint8Array, i: number): number {
  return (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
}

/** A copy with every bit from `len` on cleared. */
export function maskTo(bytes: Uint8Array, len: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = len; i < out.length * 8; i++) out[i >> 3]! &= ~(1 << (7 - (i & 7)));
  return out;
}

/** True when every bit from `len` on is zero. */
export function isNetworkAddress(bytes: Uint8Array, len: number): boolean {
  for (let i = len; i < bytes.length * 8; i++) if (getBit(bytes, i) === 1) return false;
  return true;
}

/** `bits` from `src` replace the first `len` bits of `dst` (copy returned). */
export function withPrefix(dst: Uint8Array, src: Uint8Array, len: number): Uint8Array {
  const out = new Uint8Array(dst);
  for (let i = 0; i < len; i++) {
    const mask = 1 << (7 - (i & 7));
    if (getBit(src, i)) out[i >> 3]! |= mask;
    else out[i >> 3]! &= ~mask;
  }
  return out;
}

export type IpClass = 'special' | 'private' | 'public';

/** A private block: its network bytes and prefix length. */
export interface IpBlock {
  net: Uint8Array;
  len: number;
}

const PRIVATE_V4: IpBlock[] = [
  { net: Uint8Array.of(10, 0, 0, 0), len: 8 },
  { net: Uint8Array.of(172, 16, 0, 0), len: 12 },
  { net: Uint8Array.of(192, 168, 0, 0), len: 16 },
  { net: Uint8Array.of(100, 64, 0, 0), len: 10 },
];
const ULA: IpBlock = { net: (() => Uint8Array.of(0xfc, ...new Array<number>(15).fill(0)))(), len: 7 };

function inBlock(bytes: Uint8Array, block: IpBlock): boolean {
  if (bytes.length !== block.net.length) return false;
  for (let i = 0; i < block.len; i++) if (getBit(bytes, i) !== getBit(block.net, i)) return false;
  return true;
}

/** The private block containing the address, or null. */
export function privateBlockOf(bytes: Uint8Array): IpBlock | null {
  if (bytes.length === 4) return PRIVATE_V4.find((b) => inBlock(bytes, b)) ?? null;
  return inBlock(bytes, ULA) ? ULA : null;
}

function isSpecialV4(b: Uint8Array): boolean {
  const a = b[0]!;
  if (a === 0 || a === 127 || a >= 224) return true; // this-network, loopback, multicast, reserved, broadcast
  return a === 169 && b[1] === 254; // link-local and the metadata endpoint
}

function isSpecialV6(b: Uint8Array): boolean {
  let zeroUpTo15 = true;
  for (let i = 0; i < 15; i++) if (b[i] !== 0) zeroUpTo15 = false;
  if (zeroUpTo15 && (b[15] === 0 || b[15] === 1)) return true; // :: and ::1
  if (b[0] === 0xff) return true; // multicast
  return b[0] === 0xfe && (b[1]! & 0xc0) === 0x80; // fe80::/10
}

/** Classify an address (a CIDR by its network address); any /0 route is special. */
export function classifyIp(bytes: Uint8Array, prefix: number | null): IpClass {
  if (prefix === 0) return 'special';
  const net = prefix === null ? bytes : maskTo(bytes, prefix);
  if (net.length === 4 ? isSpecialV4(net) : isSpecialV6(net)) return 'special';
  return privateBlockOf(net) ? 'private' : 'public';
}
