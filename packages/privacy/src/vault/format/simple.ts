/**
 * Formats for flat values: the generic `<prefix>-<10 hex>`, digits, GUIDs, MAC addresses,
 * access key ids and resource names.
 */
import type { FormatContext } from './context.js';
import { base32Chars, bytesOf, digitChars, hexChars } from './encode.js';

/** Entities with a fixed short prefix instead of the one derived from their name. */
const PREFIXES: Readonly<Record<string, string>> = {
  resource_name: 'res',
  dataset_name: 'ds',
  person: 'person',
  tag_value: 'tag',
  url_username: 'user',
  cloud_account: 'acct',
  azure_resource_group: 'rg',
  hostname_label: 'h',
  email_domain: 'd',
};

const prefixCache = new Map<string, string>();

/** The generic prefix: the entity's fixed prefix, else its first 10 characters without `_`. */
export function prefixFor(entity: string): string {
  let prefix = prefixCache.get(entity);
  if (prefix === undefined) {
    const cleaned = entity
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 10);
    prefix = PREFIXES[entity] ?? (cleaned === '' ? 'value' : cleaned);
    // Entity names come from detectors and policies: a handful, so the cache stays small.
    if (prefixCache.size < 1000) prefixCache.set(entity, prefix);
  }
  return prefix;
}

/** `<prefix>-<10 hex>`: the format of last resort, also used after repeated collisions. */
export function formatGeneric(value: string, entity: string, ctx: FormatContext): string {
  return `${prefixFor(entity)}-${hexChars(ctx.digest(entity, value), 10)}`;
}

const DIGITS = /^\d+$/;

/** Same number of digits; a leading zero stays a leading zero, otherwise the first digit is 1-9. */
export function formatDigits(value: string, entity: string, ctx: FormatContext): string {
  if (!DIGITS.test(value)) return formatGeneric(value, entity, ctx);
  return digitChars(ctx.digest(entity, value), value.length, value.startsWith('0'));
}

const GUID =
  /^(\{?)([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{12})(\}?)$/;

/** An RFC 9562 version 8 UUID (variant 10xx); upper case and braces preserved. */
export function formatGuid(value: string, entity: string, ctx: FormatContext): string {
  const m = GUID.exec(value);
  if (!m || m[1]!.length !== m[7]!.length) return formatGeneric(value, entity, ctx);
  const h = hexChars(ctx.digest(entity, value), 32).split('');
  h[12] = '8';
  h[16] = '89ab'[Number.parseInt(h[16]!, 16) & 3]!;
  const s = h.join('');
  let guid = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  if (/[A-F]/.test(value)) guid = guid.toUpperCase();
  return `${m[1]}${guid}${m[7]}`;
}

const MAC = /^[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}$/;
const MAC_DOTTED = /^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/;

/** A locally administered unicast MAC with the same separator and case. */
export function formatMac(value: string, entity: string, ctx: FormatContext): string {
  const m = MAC.exec(value);
  const dotted = !m && MAC_DOTTED.test(value);
  if (!m && !dotted) return formatGeneric(value, entity, ctx);
  const bytes = bytesOf(ctx.digest(entity, value), 6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  let hex = Buffer.from(bytes).toString('hex');
  if (/[A-F]/.test(value)) hex = hex.toUpperCase();
  if (dotted) return `${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8)}`;
  return hex.match(/../g)!.join(m![1]!);
}

const ACCESS_KEY = /^([A-Z]{4})([A-Z0-9]{12,})$/;

/** The 4-letter prefix (AKIA, ASIA, AROA...) followed by base32 characters of the same length. */
export function formatAccessKey(value: string, entity: string, ctx: FormatContext): string {
  const m = ACCESS_KEY.exec(value);
  if (!m) return formatGeneric(value, entity, ctx);
  return m[1]! + base32Chars(ctx.digest(entity, value), m[2]!.length);
}

/** AWS id prefixes whose `<prefix>-<hex>` shape is kept. */
const AWS_ID_PREFIXES = new Set([
  'i',
  'sg',
  'vpc',
  'subnet',
  'eni',
  'vol',
  'snap',
  'ami',
  'rtb',
  'igw',
  'eigw',
  'nat',
  'acl',
  'eipalloc',
  'eipassoc',
  'tgw',
  'tgw-attach',
  'tgw-rtb',
  'vpce',
  'pcx',
  'dopt',
  'lt',
  'fs',
  'fsap',
  'vgw',
  'cgw',
  'vpn',
  'r',
  'sir',
  'fleet',
  'key',
  'pl',
  'prefix',
  'cvpn-endpoint',
  'lb',
  'elb',
  'img',
  'import-ami',
  'export',
  'sgr',
  'rtbassoc',
  'subnet-cidr-assoc',
  'vpc-cidr-assoc',
  'ipam',
  'ipam-pool',
  'db',
  'cluster',
  'nacl',
]);
const PREFIX_HEX = /^([a-z]+(?:-[a-z]+){0,3})-([0-9a-f]{8,40})$/;

/** True for `*`, empty and `$...` values, which every resource format leaves alone. */
export function isPlaceholder(value: string): boolean {
  return value === '' || value === '*' || value.startsWith('$');
}

/** AWS `prefix-hex` ids keep prefix and length; other names become `res-<10 hex>`. */
export function formatResourceName(value: string, entity: string, ctx: FormatContext): string | null {
  if (isPlaceholder(value)) return null;
  const m = PREFIX_HEX.exec(value);
  if (m && AWS_ID_PREFIXES.has(m[1]!)) return `${m[1]}-${hexChars(ctx.digest(entity, value), m[2]!.length)}`;
  return formatGeneric(value, entity, ctx);
}
