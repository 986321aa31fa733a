/**
 * Validators that turn a regex candidate into a reported span: the placeholder check, the
 * entropy checks and IP validation with classification.
 */
import { classifyIpText, parseIp } from './ip.js';
import type { Validator } from './types.js';

const PLACEHOLDER_WORDS = new Set([
  '',
  'null',
  'none',
  'nil',
  'true',
  'false',
  'undefined',
  'redacted',
  'n/a',
  'na',
  'empty',
  'string',
  'required',
  'optional',
  'changeme',
  'placeholder',
]);
const PLACEHOLDER_RUN = /^(?:\*+|x+|#+|-+|\.+)$/i;

/** True for values that only stand in for a secret: empty, `null`, `${VAR}`, `<redacted>`, `****`... */
export function isPlaceholder(value: string): boolean {
  let v = value.trim();
  // One quote off each end (character tests: the value may be long).
  if (v.startsWith('"') || v.startsWith("'")) v = v.slice(1);
  if (v.endsWith('"') || v.endsWith("'")) v = v.slice(0, -1);
  const lower = v.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower)) return true;
  if (PLACEHOLDER_RUN.test(v)) return true;
  return lower.startsWith('[redacted') || v.startsWith('${') || v.startsWith('{{') || v.startsWith('<');
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const HEX = /^[0-9a-fA-F]+$/;
const LETTER_RUN = /[A-Za-z]{4,}/g;

/**
 * The opaque-token heuristic: mixed case and digits, not hex, fewer than three runs of four or
 * more letters (words), and at least `bits` bits of entropy per character.
 */
export function looksHighEntropy(value: string, bits = 4): boolean {
  if (HEX.test(value)) return false;
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false;
  // Counted up to three, not collected: the candidate may be a megabyte of base64.
  LETTER_RUN.lastIndex = 0;
  let runs = 0;
  while (runs < 3 && LETTER_RUN.exec(value) !== null) runs++;
  if (runs >= 3) return false;
  return shannonEntropy(value) >= bits;
}

export function entityIf(entity: string, test: (v: string) => boolean): Validator {
  return (v) => (test(v) ? entity : null);
}

/** IP validation with refinement: `private_ip`, `special_cidr`... */
export const ipValidator: Validator = (v) => classifyIpText(v);

/**
 * IPv6 candidates must have real structure, so `a::b` and `std::vector` are not addresses:
 * a prefix length, a group of three or more hex digits, an embedded IPv4 part, or `::1`.
 */
export const ipv6Validator: Validator = (v) => {
  const ip = parseIp(v);
  if (ip?.version !== 6) return null;
  const addr = v.split('/')[0]!;
  if (addr === '::' && ip.prefix === null) return null;
  const structured =
    ip.prefix !== null || addr.includes('.') || addr === '::1' || /[0-9a-fA-F]{3}/.test(addr);
  return structured ? classifyIpText(v) : null;
};

/** Builds a validator from a configuration name (`ip`, `secret`, `entropy:3.5`...). */
export function namedValidator(name: string, entity: string): Validator | null {
  const [kind, arg] = name.split(':', 2) as [string, string | undefined];
  const bits = arg === undefined ? undefined : Number(arg);
  if (arg !== undefined && (bits === undefined || Number.isNaN(bits))) return null;
  switch (kind) {
    case 'ip':
      return ipValidator;
    case 'secret':
    case 'not_placeholder':
      return arg === undefined ? entityIf(entity, (v) => !isPlaceholder(v)) : null;
    case 'entropy':
      return entityIf(entity, (v) => shannonEntropy(v) >= (bits ?? 3));
    case 'high_entropy':
      return entityIf(entity, (v) => looksHighEntropy(v, bits ?? 4));
    default:
      return null;
  }
}
