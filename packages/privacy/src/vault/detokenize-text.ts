/**
 * Reversing pseudonyms inside free text. The whole string is tried first; then one scan finds
 * every pseudonym-shaped token (ARNs, e-mails, GUIDs, MACs, IPs and CIDRs, hostnames, access
 * key ids, prefix-hex tokens, digit runs) and each is looked up. Composite shapes fall back to
 * their parts: an ARN component by component, e-mails and hostnames label by label, a CIDR by
 * its address. Every quantifier is bounded, so the scan stays linear on hostile input.
 */
import { splitResource } from './format/arn.js';

export type Resolve = (token: string) => string | undefined;

const PATTERNS = [
  // 1 ARN
  String.raw`(arn:[a-z0-9-]{1,20}:[a-z0-9-]{0,40}:[a-z0-9-]{0,30}:[^:\s]{0,64}:[^\s"'<>,;()[\]{}]{1,1024})`,
  // 2 e-mail
  String.raw`([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,10})`,
  // 3 GUID
  String.raw`(\{?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?)`,
  // 4 MAC
  String.raw`((?:[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![:\w]))`,
  // 5 IPv4 or CIDR
  String.raw`((?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?(?!\w|\.\d))`,
  // 6 IPv6 or CIDR
  String.raw`((?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?:\/\d{1,3})?(?![\w:]))`,
  // 7 hostname
  String.raw`((?<![\w.-])(?:[A-Za-z0-9_][A-Za-z0-9_-]{0,62}\.){1,20}[A-Za-z][A-Za-z0-9-]{0,62}(?![\w-]))`,
  // 8 access key id
  String.raw`(\b[A-Z]{4}[A-Z2-7]{16}\b)`,
  // 9 prefix-hex
  String.raw`((?<![\w-])[a-z][a-z0-9]{0,30}(?:-[a-z][a-z0-9]{0,30}){0,3}-[0-9a-f]{8,40}(?![\w-]))`,
  // 10 digit run
  String.raw`((?<!\d)\d{6,20}(?!\d))`,
];
const SCAN = new RegExp(PATTERNS.join('|'), 'g');
const DIGITS_RUN = /\d{6,20}/g;
const EXAMPLE_DOMAIN = /^(d-[0-9a-f]{10})\.example$/;

function arn(text: string, resolve: Resolve): string {
  const whole = resolve(text);
  if (whole !== undefined) return whole;
  const fields = text.split(':');
  if (fields.length < 6) return text;
  const head = fields.slice(0, 4);
  const account = fields[4]!;
  const resource = fields.slice(5).join(':');
  const parts = splitResource(resource);
  for (let i = 0; i < parts.length; i += 2) {
    const real = parts[i] ? resolve(parts[i]!) : undefined;
    if (real !== undefined) parts[i] = real;
  }
  return [...head, resolve(account) ?? account, parts.join('')].join(':');
}

function digitRuns(text: string, resolve: Resolve): string {
  return text.replace(DIGITS_RUN, (d) => resolve(d) ?? d);
}

function hostname(text: string, resolve: Resolve): string {
  const whole = resolve(text);
  if (whole !== undefined) return whole;
  const example = EXAMPLE_DOMAIN.exec(text);
  if (example) return resolve(example[1]!) ?? text;
  const labels = text.split('.');
  let changed = false;
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    // `d-<hex>.example` inside a longer name stands for the real domain without `.example`.
    if (/^d-[0-9a-f]{10}$/.test(label) && labels[i + 1] === 'example') {
      const real = resolve(label);
      if (real !== undefined) {
        out.push(real);
        i++;
        changed = true;
        continue;
      }
    }
    const real = resolve(label) ?? digitRuns(label, resolve);
    if (real !== label) changed = true;
    out.push(real);
  }
  return changed ? out.join('.') : text;
}

function email(text: string, resolve: Resolve): string {
  const whole = resolve(text);
  if (whole !== undefined) return whole;
  const at = text.lastIndexOf('@');
  return `${digitRuns(text.slice(0, at), resolve)}@${hostname(text.slice(at + 1), resolve)}`;
}

function ip(text: string, resolve: Resolve): string {
  const whole = resolve(text);
  if (whole !== undefined) return whole;
  const slash = text.indexOf('/');
  if (slash < 0) return text;
  // A CIDR whose address part is a pseudonym is rebuilt with the same prefix length.
  const real = resolve(text.slice(0, slash));
  return real !== undefined && !real.includes('/') ? `${real}${text.slice(slash)}` : text;
}

/** Replace every pseudonym `resolve` knows inside `text`. */
export function detokenizeTextWith(text: string, resolve: Resolve): string {
  const whole = resolve(text);
  if (whole !== undefined) return whole;
  return text.replace(SCAN, (match: string, ...groups: unknown[]) => {
    if (groups[0] !== undefined) {
      // Sentence punctuation after an ARN is not part of its last component.
      const trail = /[.!?]+$/.exec(match)?.[0] ?? '';
      return arn(match.slice(0, match.length - trail.length), resolve) + trail;
    }
    if (groups[1] !== undefined) return email(match, resolve);
    if (groups[4] !== undefined || groups[5] !== undefined) return ip(match, resolve);
    if (groups[6] !== undefined) return hostname(match, resolve);
    return resolve(match) ?? match;
  });
}
