/**
 * How built-in detectors are declared: a plain definition turned into a `Detector`, and two
 * shapes most secret formats fit (a token with a distinctive prefix; a value of a precise shape
 * that only means something next to a provider's name).
 *
 * Linear time, always (bench/detectors.ts, test/linearity.test.ts): every pattern starts at
 * something distinctive (a literal, or a lookbehind that only the first character of a run
 * passes) and every open-ended run either ends the match or is followed only by a lookahead
 * for a character it cannot contain, so a failed attempt never reads a run again from inside.
 */
import { DETECTOR_DESCRIPTIONS } from './descriptions.js';
import type { Detector, Validator } from './types.js';
import { entityIf, isPlaceholder, isPlaceholderToken } from './validators.js';

export interface Def {
  name: string;
  entity: string;
  category: string;
  confidence: number;
  pattern: string;
  flags?: string;
  hints?: string[];
  group?: number | number[];
  entities?: string[];
  validate?: Validator;
  minLength?: number;
}

/**
 * A lookbehind: not right after one of `chars` (a character class body), unless that character
 * ends a backslash escape. Text that holds JSON has `\n`, `\t` or `\"` before many values; the
 * `n` of `\nghp_...` is not part of the token.
 */
export function notAfter(chars: string): string {
  return `(?<!(?<!\\\\)[${chars}])`;
}

export function define(d: Def): Detector {
  return {
    name: d.name,
    entity: d.entity,
    category: d.category,
    confidence: d.confidence,
    ...(DETECTOR_DESCRIPTIONS[d.name] ? { description: DETECTOR_DESCRIPTIONS[d.name] } : {}),
    hints: d.hints ?? [],
    // No `d` flag (match indices cost an allocation per match): in every built-in pattern a
    // reported group ends the match or is followed only by characters it cannot contain, so
    // scan.ts locates it as the last occurrence of its text in the match.
    pattern: new RegExp(d.pattern, `g${d.flags ?? ''}`),
    group: d.group ?? 0,
    entities: d.entities ?? [d.entity],
    ...(d.validate ? { validate: d.validate } : {}),
    minLength: d.minLength ?? 1,
    enabled: true,
    builtin: true,
  };
}

export const notPlaceholder = (entity: string): Validator => entityIf(entity, (v) => !isPlaceholder(v));

/**
 * A token that starts with a fixed prefix. The pattern is `(?<!before)(?:prefixes)(?:body)(?!after)`;
 * the validator strips the prefix (the first match of `prefix` at the start of the value) and
 * rejects placeholder bodies (isPlaceholderToken), then applies `check` to the whole value.
 */
export interface TokenDef {
  name: string;
  /** Regex source of the alternatives the token starts with (`ghp_|gho_`). */
  prefix: string;
  /** Regex source of what follows the prefix. */
  body: string;
  hints: string[];
  minLength: number;
  entity?: string;
  confidence?: number;
  flags?: string;
  /**
   * Characters that may not precede the token. Default: those that may not follow it but `=`,
   * so that only the first prefix of a run starts a match (`glpat-glpat-...` is read once) while
   * `KEY=glpat-...` still does.
   */
  before?: string;
  /** Characters that may not follow it. Default: letters, digits, `_` and `-`. */
  after?: string;
  /** A structural check on the whole token (checksum, base64 payload...). */
  check?: (token: string) => boolean;
}

export function token(t: TokenDef): Detector {
  const strip = new RegExp(`^(?:${t.prefix})`, t.flags?.includes('i') ? 'i' : '');
  const entity = t.entity ?? 'api_token';
  const check = t.check;
  return define({
    name: t.name,
    entity,
    category: 'secret',
    confidence: t.confidence ?? 0.95,
    pattern: `${notAfter(t.before ?? (t.after ?? 'A-Za-z0-9_-').replace('=', ''))}(?:${t.prefix})(?:${t.body})(?![${t.after ?? 'A-Za-z0-9_-'}])`,
    ...(t.flags ? { flags: t.flags } : {}),
    hints: t.hints,
    minLength: t.minLength,
    validate: (v) => {
      const prefix = strip.exec(v)?.[0] ?? '';
      if (isPlaceholderToken(v.slice(prefix.length))) return null;
      return check === undefined || check(v) ? entity : null;
    },
  });
}

/**
 * A value of a precise shape that is a secret only next to a provider's name:
 * `DD_APP_KEY=<40 characters>`, `sumo_access_key: "<64>"`, `"twilio_auth_token": "<32 hex>"`.
 * The keyword (case-insensitive, not preceded by a letter or digit) may be followed by up to
 * 40 name characters (`_APP_KEY`, `logic: accessKey`), then an assignment (`=`, `:`, `:=`,
 * `=>`, `,`, each possibly quoted, JSON-escaped or padded), then the value, which must end
 * where its shape ends.
 */
export interface LabelledDef {
  name: string;
  keywords: string[];
  /** Regex source of the value; matched case-insensitively, like the keyword. */
  value: string;
  /** Characters that may not follow the value. Default: letters, digits, `_` and `-`. */
  after?: string;
  minLength: number;
  entity?: string;
  confidence?: number;
  /** Hints, when they differ from the keywords. */
  hints?: string[];
  check?: (value: string) => boolean;
}

/** Between a label and its value: closing quotes, an operator, opening quotes. */
export const ASSIGN = `[\\\\"'\\x60]{0,3}[ \\t]{0,4}(?::{0,3}=|=>|[:,>]|\\?=)[ \\t]{0,4}[\\\\"'\\x60]{0,3}`;

export function labelled(l: LabelledDef): Detector {
  const entity = l.entity ?? 'api_token';
  const check = l.check;
  return define({
    name: l.name,
    entity,
    category: 'secret',
    confidence: l.confidence ?? 0.85,
    pattern: `${notAfter('A-Za-z0-9')}(?:${l.keywords.join('|')})[\\w. :-]{0,40}?${ASSIGN}(${l.value})(?![${l.after ?? 'A-Za-z0-9_-'}])`,
    flags: 'i',
    hints: l.hints ?? l.keywords.map((k) => k.replace(/\\/g, '').toLowerCase()),
    group: 1,
    minLength: l.minLength,
    validate: (v) => (isPlaceholderToken(v) || (check !== undefined && !check(v)) ? null : entity),
  });
}
