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
/**
 * Words that mark a stand-in wherever they appear in a value: `your-password-here`,
 * `<change_me>`, `REPLACE_WITH_TOKEN`. Not `example`: the documented example keys
 * (`AKIAIOSFODNN7EXAMPLE`) are detected as the reference says.
 */
const STAND_IN = /your|changeme|change_me|change-me|placeholder|replace_?me|redacted|fake|dummy|x{5}|\*{4}/i;
/** An environment variable or template reference: `%NUGET_PASSWORD%`, `$DB_PASS`, `$(cat f)`. */
const REFERENCE = /^(?:%[\w.-]+%|\$[A-Za-z_][\w]*|\$\(.*\)|\$\{.*\})$/;

/**
 * True for values that only stand in for a secret: empty, `null`, `${VAR}`, `%VAR%`,
 * `<redacted>`, `****`, `your-password-here`, `somefakekey`, one character repeated...
 */
export function isPlaceholder(value: string): boolean {
  let v = value.trim();
  // One quote off each end (character tests: the value may be long).
  if (v.startsWith('"') || v.startsWith("'")) v = v.slice(1);
  if (v.endsWith('"') || v.endsWith("'")) v = v.slice(0, -1);
  const lower = v.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower)) return true;
  if (PLACEHOLDER_RUN.test(v)) return true;
  if (lower.startsWith('[redacted') || v.startsWith('${') || v.startsWith('{{') || v.startsWith('<'))
    return true;
  return REFERENCE.test(v) || STAND_IN.test(v) || (v.length >= 8 && dominated(v));
}

/** One character makes up 60% or more of the value (`AIzaaaaaaaaa...`, `000000-0000`). */
function dominated(v: string): boolean {
  return topCount(v, 0, false) / v.length >= 0.6;
}

/** Counts per character code below 128, reused (the validators run one at a time). */
const COUNTS = new Uint32Array(128);

/**
 * How often the most frequent character occurs in `v` from `from` on, skipping `- . _` when
 * `skipSeparators` (characters outside ASCII count as one class).
 */
function topCount(v: string, from: number, skipSeparators: boolean): number {
  COUNTS.fill(0);
  let top = 0;
  for (let i = from; i < v.length; i++) {
    const c = Math.min(v.charCodeAt(i), 127);
    if (skipSeparators && (c === 45 || c === 46 || c === 95)) continue;
    const k = ++COUNTS[c]!;
    if (k > top) top = k;
  }
  return top;
}

/** Characters that mask a value: `x`, `X`, `*`, `#`, `0` (and the separators `-`, `.`, `_`). */
const MASK_ONLY = /^[xX*#0._-]*$/;

/**
 * True when the part of a token after its fixed prefix cannot be a real one: nothing but
 * separators and mask characters (`xxxx`, `XXXX-XXXX`, `****`, `0000`), one character making up
 * most of it (`AIzaSyAAAAAAAA...`), a stand-in word (`ghp_yourTokenHere...`) or a template
 * marker. Real tokens are random: none of this happens to one by chance.
 */
export function isPlaceholderToken(body: string): boolean {
  if (MASK_ONLY.test(body)) return true;
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 45 && c !== 46 && c !== 95) n++;
  }
  if (n >= 8 && topCount(body, 0, true) / n >= 0.6) return true;
  return STAND_IN.test(body) || TOKEN_STAND_IN.test(body);
}

/** More marks of a stand-in, for tokens (in a password, `here` could be real). */
const TOKEN_STAND_IN = /here|dummy|fake|<|>|\$\{|\{\{/i;

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

/**
 * A token that could be random: upper case, lower case and digits all present, no placeholder
 * marks, and at least 4 bits of entropy per character. Unlike looksHighEntropy it does not
 * count letter runs, which random base64 has plenty of.
 */
export function looksRandom(value: string): boolean {
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false;
  return !isPlaceholderToken(value) && shannonEntropy(value) >= 4;
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
