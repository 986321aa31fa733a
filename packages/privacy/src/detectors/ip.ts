/**
 * IP address parsing, validation and classification (special, private, public) without a
 * dependency. Used by the IP detectors, the `ip` validator and the `generalize` strategy.
 */

export type IpClass = 'special' | 'private' | 'public';

export interface ParsedIp {
  version: 4 | 6;
  /** IPv4: 4 octets; IPv6: 8 groups of 16 bits. */
  parts: number[];
  prefix: number | null;
}

export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || !/^\d+$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

export function parseIpv6(text: string): number[] | null {
  if (text.length < 2 || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let tail: number[] = [];
  let body = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    body = text.slice(0, lastColon + 1);
    // Keep a trailing '::' ("::1.2.3.4"); otherwise drop the ':' before the IPv4 part.
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const dbl = body.indexOf('::');
  if (dbl !== -1 && body.indexOf('::', dbl + 1) !== -1) return null;
  const parseGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (g.length === 0 || g.length > 4 || !/^[0-9a-fA-F]+$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  if (dbl === -1) {
    const groups = parseGroups(body);
    if (!groups || groups.length + tail.length !== 8) return null;
    return [...groups, ...tail];
  }
  const head = parseGroups(body.slice(0, dbl));
  const rest = parseGroups(body.slice(dbl + 2));
  if (!head || !rest) return null;
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest, ...tail];
}

/** Parses `addr` or `addr/prefix`. */
export function parseIp(text: string): ParsedIp | null {
  const slash = text.indexOf('/');
  const addr = slash === -1 ? text : text.slice(0, slash);
  let prefix: number | null = null;
  if (slash !== -1) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p)) return null;
    prefix = Number(p);
  }
  if (addr.includes(':')) {
    const parts = parseIpv6(addr);
    if (!parts || (prefix !== null && prefix > 128)) return null;
    return { version: 6, parts, prefix };
  }
  const parts = parseIpv4(addr);
  if (!parts || (prefix !== null && prefix > 32)) return null;
  return { version: 4, parts, prefix };
}

function maskTo(parts: number[], bits: number, width: number): number[] {
  return parts.map((p, i) => {
    const start = i * width;
    if (bits >= start + width) return p;
    if (bits <= start) return 0;
    const keep = bits - start;
    return p & (((1 << keep) - 1) << (width - keep));
  });
}

/** The network address of a parsed IP (the address itself when there is no prefix). */
export function networkOf(ip: ParsedIp, prefix = ip.prefix): number[] {
  if (prefix === null) return ip.parts;
  return maskTo(ip.parts, prefix, ip.version === 4 ? 8 : 16);
}

function classifyV4(p: number[]): IpClass {
  const [a, b, c, d] = p as [number, number, number, number];
  if (a === 0 && b === 0 && c === 0 && d === 0) return 'special';
  if (a === 127) return 'special';
  if (a === 169 && b === 254) return 'special';
  if (a >= 224) return 'special'; // multicast 224/4, reserved 240/4, broadcast
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  return 'public';
}

function classifyV6(p: number[]): IpClass {
  if (p.every((g) => g === 0)) return 'special';
  if (p.slice(0, 7).every((g) => g === 0) && p[7] === 1) return 'special';
  const g0 = p[0]!;
  if ((g0 & 0xffc0) === 0xfe80) return 'special';
  if ((g0 & 0xff00) === 0xff00) return 'special';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  // IPv4-mapped ::ffff:a.b.c.d takes the class of the embedded address.
  if (p.slice(0, 5).every((g) => g === 0) && p[5] === 0xffff) {
    return classifyV4([p[6]! >> 8, p[6]! & 255, p[7]! >> 8, p[7]! & 255]);
  }
  return 'public';
}

/** Class of an address, or of a CIDR's network address; any `/0` route is special. */
export function classifyParsed(ip: ParsedIp): IpClass {
  if (ip.prefix === 0) return 'special';
  const net = networkOf(ip);
  return ip.version === 4 ? classifyV4(net) : classifyV6(net);
}

/** `private_ip`, `public_cidr`... for IP text, or null when it is not a valid address/CIDR. */
export function classifyIpText(text: string): string | null {
  const ip = parseIp(text);
  if (!ip) return null;
  return `${classifyParsed(ip)}_${ip.prefix === null ? 'ip' : 'cidr'}`;
}

export function formatIpv4(parts: number[]): string {
  return parts.join('.');
}

export function formatIpv6(parts: number[]): string {
  // Compress the longest run of zero groups (length >= 2), as RFC 5952 does.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = parts.map((p) => p.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}
