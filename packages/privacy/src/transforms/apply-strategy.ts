/**
 * Applying one strategy to one value (a whole value under a key rule, or a span of a string).
 */
import { createHash } from 'node:crypto';
import { classifyParsed, formatIpv4, formatIpv6, networkOf, parseIp } from '../detectors/ip.js';
import type { PseudonymVault } from '../types.js';
import type { Strategy, StrategyKind } from './strategies.js';

/** Returned when the enclosing field or list element must be removed. */
export const DROP: unique symbol = Symbol('drop');
export type Dropped = typeof DROP;

export interface StrategyEnv {
  vault: PseudonymVault | undefined;
  namespace: string | undefined;
  redactTemplate: string;
  hashTemplate: string;
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** The report key a strategy actually counts under (pseudonymize falls back to hash without a vault). */
export function effectiveKind(s: Strategy, vault: PseudonymVault | undefined): StrategyKind {
  return s.kind === 'pseudonymize' && !vault ? 'hash' : s.kind;
}

export function maskValue(value: string, o: Readonly<Record<string, unknown>>): string {
  const char = typeof o.char === 'string' ? o.char : '*';
  let first = typeof o.keep_first === 'number' ? Math.max(0, o.keep_first) : 0;
  let last = typeof o.keep_last === 'number' ? Math.max(0, o.keep_last) : 4;
  const preserve = typeof o.preserve === 'string' ? o.preserve : '';
  const n = value.length;
  if (n <= 4) {
    first = 0;
    last = 0;
  } else if (first + last >= n) {
    first = 0;
    last = Math.min(last, Math.floor(n / 4));
  }
  let middle = '';
  for (let i = first; i < n - last; i++) {
    const c = value[i]!;
    middle += preserve.includes(c) ? c : char;
  }
  let out = value.slice(0, first) + middle + value.slice(n - last);
  const max = typeof o.max_length === 'number' ? o.max_length : null;
  if (max !== null && out.length > max) {
    // Shorten the masked part so the output also hides the real length.
    const keepMiddle = Math.max(1, max - first - last);
    out = value.slice(0, first) + middle.slice(0, keepMiddle) + value.slice(n - last);
  }
  return out;
}

export function hashDigest(
  value: string,
  entity: string,
  vault: PseudonymVault | undefined,
  length: number,
): string {
  const hex = vault ? vault.hashValue(value, entity) : createHash('sha256').update(value).digest('hex');
  return hex.slice(0, length);
}

function generalizeIp(value: string, o: Readonly<Record<string, unknown>>): string | null {
  const ip = parseIp(value);
  if (!ip) return null;
  if (classifyParsed(ip) === 'special') return value;
  const want =
    ip.version === 4
      ? typeof o.ipv4_prefix === 'number'
        ? o.ipv4_prefix
        : 24
      : typeof o.ipv6_prefix === 'number'
        ? o.ipv6_prefix
        : 48;
  const prefix = ip.prefix === null ? want : Math.min(want, ip.prefix);
  const net = networkOf(ip, prefix);
  return `${ip.version === 4 ? formatIpv4(net) : formatIpv6(net)}/${prefix}`;
}

const TS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/;

function generalizeTimestamp(value: string, granularity: string): string | null {
  const m = TS.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m;
  switch (granularity) {
    case 'year':
      return y!;
    case 'month':
      return `${y}-${mo}`;
    case 'hour':
      return h === undefined ? `${y}-${mo}-${d}` : `${y}-${mo}-${d}T${h}:00`;
    case 'minute':
      return h === undefined ? `${y}-${mo}-${d}` : `${y}-${mo}-${d}T${h}:${mi}`;
    default:
      return `${y}-${mo}-${d}`;
  }
}

function generalizeArn(value: string): string | null {
  const parts = value.split(':');
  if (parts.length < 6 || parts[0] !== 'arn') return null;
  const [, partition, service, region, account] = parts;
  const resource = parts.slice(5).join(':');
  const segs = resource.split(/[/:]/);
  const sep = resource.includes('/') ? '/' : ':';
  const res = segs.length > 1 && service !== 's3' ? `${segs[0]}${sep}*` : '*';
  return `arn:${partition}:${service}:${region}:${account ? '*' : ''}:${res}`;
}

function generalizeAzure(value: string): string | null {
  const segs = value.split('/');
  if (segs[1]?.toLowerCase() !== 'subscriptions') return null;
  const out = [...segs];
  let i = 1;
  while (i < out.length) {
    const seg = out[i]!.toLowerCase();
    if (seg === 'providers') {
      // Namespace stays, then type/name pairs: types stay, names go.
      i += 2;
      while (i < out.length) {
        if (i + 1 < out.length) out[i + 1] = '*';
        i += 2;
      }
      break;
    }
    if (i + 1 < out.length) out[i + 1] = '*';
    i += 2;
  }
  return out.join('/');
}

export function generalizeValue(value: string, entity: string, o: Readonly<Record<string, unknown>>): string {
  if (typeof o.bucket === 'number' && o.bucket > 0 && /^-?\d+(?:\.\d+)?$/.test(value)) {
    const n = Number(value);
    const lo = Math.floor(n / o.bucket) * o.bucket;
    return `${lo}-${lo + o.bucket}`;
  }
  if (entity === 'email' || /^[^@\s]+@[^@\s]+$/.test(value)) {
    const at = value.lastIndexOf('@');
    if (at > 0) return `*@${value.slice(at + 1)}`;
  }
  if (entity.endsWith('_ip') || entity.endsWith('_cidr') || entity === 'ip_address' || entity === 'cidr') {
    const ip = generalizeIp(value, o);
    if (ip !== null) return ip;
  }
  if (entity === 'timestamp') {
    const ts = generalizeTimestamp(value, typeof o.granularity === 'string' ? o.granularity : 'day');
    if (ts !== null) return ts;
  }
  if (entity === 'aws_arn') {
    const arn = generalizeArn(value);
    if (arn !== null) return arn;
  }
  if (entity === 'azure_resource_id') {
    const az = generalizeAzure(value);
    if (az !== null) return az;
  }
  if (entity === 'hostname') {
    const keep = typeof o.keep_labels === 'number' ? o.keep_labels : 2;
    const labels = value.split('.');
    if (labels.length > keep) return `*.${labels.slice(labels.length - keep).join('.')}`;
    return value;
  }
  return `<${entity}>`;
}

/** Applies `s` to `value`; DROP means the enclosing field goes. `keep` returns the value. */
export function applyStrategy(
  s: Strategy,
  value: string,
  entity: string,
  env: StrategyEnv,
): string | Dropped {
  const o = s.options;
  switch (s.kind) {
    case 'keep':
      return value;
    case 'drop':
      return DROP;
    case 'redact': {
      const template =
        typeof o.text === 'string'
          ? o.text
          : typeof o.template === 'string'
            ? o.template
            : env.redactTemplate;
      return fill(template, { entity, length: value.length });
    }
    case 'mask':
      return maskValue(value, o);
    case 'generalize':
      return generalizeValue(value, entity, o);
    case 'pseudonymize':
      if (env.vault) {
        const as = typeof o.as === 'string' ? o.as : entity;
        return env.vault.pseudonymize(
          value,
          as,
          env.namespace === undefined ? {} : { namespace: env.namespace },
        );
      }
      return fill(env.hashTemplate, { entity, digest: hashDigest(value, entity, undefined, 12) });
    case 'hash': {
      const length = typeof o.length === 'number' ? o.length : 12;
      const template = typeof o.template === 'string' ? o.template : env.hashTemplate;
      return fill(template, { entity, digest: hashDigest(value, entity, env.vault, length) });
    }
  }
}
