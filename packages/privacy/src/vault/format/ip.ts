/**
 * IP addresses and CIDRs.
 *
 * Private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): the block prefix is kept and the
 * remaining bits go through the namespace's prefix-preserving permutation, so a CIDR's
 * pseudonym contains the pseudonyms of its hosts. A CIDR as wide as its block or wider is
 * left alone.
 *
 * Public: the reference mapped public addresses and public CIDRs independently at random, so
 * `54.12.33.4` did not land inside the pseudonym of `54.12.33.0/24`. Here every public value
 * goes through the same permutation P over the whole address, and the pool prefix then
 * replaces P's leading bits:
 *   - IPv4 address, or CIDR /15 to /32: 198.18.0.0/15 followed by bits 15..31 of P(addr);
 *   - IPv4 CIDR /4 to /14: 240.0.0.0/4 followed by bits 4..31 of P(addr), cut to the prefix;
 *   - IPv6 address, or CIDR /32 and narrower: 2001:db8::/32 followed by bits 32..127 of P(addr).
 * Because P preserves prefixes, an address inside a CIDR of /15 or narrower (IPv6: /32 or
 * narrower) shares that CIDR's first n bits after P, so its pseudonym lies inside the CIDR's
 * pseudonym. CIDRs wider than the pool (/4 to /14) cannot contain the pool addresses; they
 * stay consistent with each other (a /12 inside a /8 maps inside the /8's pseudonym).
 * Dropping P's leading bits makes the public map many-to-one, like a random map into the
 * pool, except that addresses of one real /15 never clash with each other (P is a bijection
 * below every prefix). A clash is handled by the vault's collision loop, whose retries
 * re-randomise as few trailing bits as possible (see `retry`), so the value usually stays
 * inside the pseudonyms of its enclosing CIDRs; only a value that needs a wide retry loses
 * that. A public IPv4 CIDR that finds no free slot in the pool moves on to 240.0.0.0/4.
 * IPv4 /0 to /3 and IPv6 prefixes shorter than /32 are left alone, as are special addresses.
 */
import {
  classifyIp,
  formatIp,
  getBit,
  isNetworkAddress,
  maskTo,
  parseIp,
  privateBlockOf,
  withPrefix,
} from '../ip/address.js';
import type { FormatContext } from './context.js';
import { bytesOf } from './encode.js';

const POOL_V4 = Uint8Array.of(198, 18, 0, 0);
const POOL_V4_LEN = 15;
const WIDE_V4 = Uint8Array.of(240, 0, 0, 0);
const WIDE_V4_LEN = 4;
const POOL_V6 = Uint8Array.of(0x20, 0x01, 0x0d, 0xb8, ...new Array<number>(12).fill(0));
const POOL_V6_LEN = 32;

/**
 * Retries after a collision (rare, but certain to happen sometimes in a /15 pool) change as
 * few bits as possible, so the value usually stays inside the pseudonyms of its enclosing
 * CIDRs: only the last r bits of the significant range [lo, hi) are replaced by keyed random
 * bits, r growing every three attempts (from 8 host bits for an address, from 1 network bit
 * for a CIDR). A public IPv4 CIDR that exhausts the pool moves on to 240.0.0.0/4.
 */
function retry(
  out: Uint8Array,
  lo: number,
  hi: number,
  cls: 'private' | 'public',
  isCidr: boolean,
  value: string,
  ctx: FormatContext,
): Uint8Array {
  let r = (isCidr ? 1 : 8) + Math.floor((ctx.attempt - 1) / 3);
  let res: Uint8Array = new Uint8Array(out);
  if (r > hi - lo && cls === 'public' && isCidr && out.length === 4 && lo === POOL_V4_LEN) {
    r -= hi - lo;
    lo = WIDE_V4_LEN;
    res = withPrefix(res, WIDE_V4, WIDE_V4_LEN);
  }
  r = Math.min(r, hi - lo);
  const rnd = bytesOf(ctx.digest('ip_retry', value), out.length);
  for (let i = hi - r; i < hi; i++) {
    const mask = 1 << (7 - (i & 7));
    if (getBit(rnd, i)) res[i >> 3]! |= mask;
    else res[i >> 3]! &= ~mask;
  }
  return res;
}

/**
 * Pseudonymise an IP address or CIDR: the pseudonym, null when it stays as it is, undefined
 * when the text is not an IP address at all.
 */
export function formatIpValue(value: string, ctx: FormatContext): string | null | undefined {
  const ip = parseIp(value);
  if (!ip) return undefined;
  const { bytes, prefix } = ip;
  const cls = classifyIp(bytes, prefix);
  if (cls === 'special') return null;
  const width = bytes.length * 8;
  const hi = prefix ?? width;
  let out: Uint8Array;
  let lo: number;
  if (cls === 'private') {
    const block = privateBlockOf(prefix === null ? bytes : maskTo(bytes, prefix))!;
    if (prefix !== null && prefix <= block.len) return null;
    lo = block.len;
    out = ctx.permuter(bytes.length as 4 | 16).permute(bytes, lo);
  } else if (bytes.length === 4) {
    if (prefix !== null && prefix < WIDE_V4_LEN) return null;
    const wide = prefix !== null && prefix < POOL_V4_LEN;
    const p = ctx.permuter(4).permute(bytes, 0);
    lo = wide ? WIDE_V4_LEN : POOL_V4_LEN;
    out = wide ? withPrefix(p, WIDE_V4, WIDE_V4_LEN) : withPrefix(p, POOL_V4, POOL_V4_LEN);
  } else {
    if (prefix !== null && prefix < POOL_V6_LEN) return null;
    lo = POOL_V6_LEN;
    out = withPrefix(ctx.permuter(16).permute(bytes, 0), POOL_V6, POOL_V6_LEN);
  }
  if (ctx.attempt > 0) out = retry(out, lo, hi, cls, prefix !== null, value, ctx);
  if (prefix === null) return formatIp(out);
  // A network address stays a network address; an interface address keeps its host bits.
  const shown = isNetworkAddress(bytes, prefix) ? maskTo(out, prefix) : out;
  return `${formatIp(shown)}/${prefix}`;
}

/** True when the text parses as an IP address or CIDR. */
export function looksLikeIp(value: string): boolean {
  return parseIp(value) !== null;
}
