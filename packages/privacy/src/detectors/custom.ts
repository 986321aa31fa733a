/**
 * Custom detectors from configuration, validated when they are loaded so that a bad pattern
 * or an unknown option fails at start-up, not on the first matching string.
 */
import { DetectorConfigError } from '../errors.js';
import type { Detector } from './types.js';
import { namedValidator } from './validators.js';

/** A detector as written in a policy's `detectors:` list. */
export interface CustomDetectorConfig {
  name: string;
  entity?: string;
  category?: string;
  pattern: string;
  group?: number;
  confidence?: number;
  hints?: string[];
  flags?: string[] | string;
  ignore_case?: boolean;
  validator?: string | null;
  min_length?: number;
  enabled?: boolean;
}

const FIELDS = new Set([
  'name',
  'entity',
  'category',
  'pattern',
  'group',
  'confidence',
  'hints',
  'flags',
  'ignore_case',
  'validator',
  'min_length',
  'enabled',
]);

const FLAG_NAMES: Record<string, string> = {
  i: 'i',
  ignorecase: 'i',
  ignore_case: 'i',
  m: 'm',
  multiline: 'm',
  s: 's',
  dotall: 's',
  x: 'x',
  verbose: 'x',
};

/** Removes whitespace and `#` comments outside character classes (Python's verbose mode). */
export function stripVerbose(src: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += c + (src[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** Translates the Python-flavoured pattern of a policy file into a JS regex source and flags. */
function translate(name: string, pattern: string, flags: Set<string>): string {
  let src = pattern;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (inline) {
    for (const f of inline[1]!) if ('imsx'.includes(f)) flags.add(f);
    src = src.slice(inline[0].length);
  }
  if (flags.has('x')) {
    src = stripVerbose(src);
    flags.delete('x');
  }
  if (/\(\?P?<[A-Za-z_]\w*>/.test(src) || /\(\?P=/.test(src)) {
    throw new DetectorConfigError(name, 'named groups are not supported; use numbered groups', {
      field: 'pattern',
    });
  }
  return src.replace(/\\A/g, '^').replace(/\\Z/g, '$');
}

function fail(name: string | undefined, problem: string, field: string): never {
  throw new DetectorConfigError(name, problem, { field });
}

/** Validates one detector definition and compiles it. */
export function compileCustomDetector(config: unknown): Detector {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new DetectorConfigError(undefined, 'a detector must be a mapping');
  }
  const c = config as Record<string, unknown>;
  const name = c.name;
  if (typeof name !== 'string' || name.trim() === '') fail(undefined, "'name' is required", 'name');
  for (const k of Object.keys(c)) {
    if (!FIELDS.has(k)) fail(name, `unknown option '${k}'`, k);
  }
  if (typeof c.pattern !== 'string' || c.pattern === '') fail(name, "'pattern' is required", 'pattern');
  const str = (k: string, def: string): string => {
    const v = c[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'string' || v === '') fail(name, `'${k}' must be a non-empty string`, k);
    return v;
  };
  const num = (k: string, def: number, min: number, max = Number.POSITIVE_INFINITY, int = false): number => {
    const v = c[k];
    if (v === undefined || v === null) return def;
    if (typeof v !== 'number' || Number.isNaN(v) || v < min || v > max || (int && !Number.isInteger(v))) {
      fail(name, `'${k}' must be ${int ? 'an integer' : 'a number'} between ${min} and ${max}`, k);
    }
    return v;
  };
  const entity = str('entity', name);
  const category = str('category', 'identifier');
  const confidence = num('confidence', 0.8, 0, 1);
  const group = num('group', 0, 0, 99, true);
  const minLength = num('min_length', 1, 0, Number.POSITIVE_INFINITY, true);
  const enabled = c.enabled === undefined ? true : c.enabled;
  if (typeof enabled !== 'boolean') fail(name, "'enabled' must be a boolean", 'enabled');

  let hints: string[] = [];
  if (c.hints !== undefined && c.hints !== null) {
    if (!Array.isArray(c.hints) || c.hints.some((h) => typeof h !== 'string' || h === '')) {
      fail(name, "'hints' must be a list of non-empty strings", 'hints');
    }
    hints = (c.hints as string[]).map((h) => h.toLowerCase());
  }

  const flags = new Set<string>();
  const rawFlags = c.flags === undefined || c.flags === null ? [] : c.flags;
  const flagList = typeof rawFlags === 'string' ? rawFlags.split(/[\s,|]+/).filter(Boolean) : rawFlags;
  if (!Array.isArray(flagList)) fail(name, "'flags' must be a list of flag names", 'flags');
  for (const f of flagList) {
    const key = typeof f === 'string' ? f.toLowerCase().replace(/^re\./, '') : '';
    const letters = FLAG_NAMES[key] ?? (/^[imsx]+$/.test(key) ? key : undefined);
    if (letters === undefined) fail(name, `unknown flag '${String(f)}'`, 'flags');
    for (const l of letters) flags.add(l);
  }
  if (c.ignore_case !== undefined) {
    if (typeof c.ignore_case !== 'boolean') fail(name, "'ignore_case' must be a boolean", 'ignore_case');
    if (c.ignore_case) flags.add('i');
  }

  const source = translate(name, c.pattern as string, flags);
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, `g${group === 0 ? '' : 'd'}${[...flags].join('')}`);
  } catch (err) {
    throw new DetectorConfigError(name, 'the pattern is not a valid regular expression', {
      field: 'pattern',
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  const groups = (new RegExp(`${source}|`, [...flags].join('')).exec('')?.length ?? 1) - 1;
  if (group > groups)
    fail(name, `'group' ${group} does not exist in the pattern (${groups} groups)`, 'group');

  let validate: Detector['validate'];
  const entities = [entity];
  if (c.validator !== undefined && c.validator !== null) {
    if (typeof c.validator !== 'string') fail(name, "'validator' must be a string", 'validator');
    const v = namedValidator(c.validator, entity);
    if (!v) {
      fail(
        name,
        `unknown validator '${c.validator}' (use ip, secret, not_placeholder, entropy[:bits] or high_entropy[:bits])`,
        'validator',
      );
    }
    validate = v;
    if (c.validator === 'ip') {
      entities.push('private_ip', 'public_ip', 'special_ip', 'private_cidr', 'public_cidr', 'special_cidr');
    }
  }

  return {
    name,
    entity,
    category,
    confidence,
    hints,
    pattern,
    group,
    entities,
    ...(validate ? { validate } : {}),
    minLength,
    enabled,
    builtin: false,
  };
}

/** Validates every definition; a duplicate name is refused. */
export function compileCustomDetectors(configs: readonly unknown[] | undefined): Detector[] {
  const out: Detector[] = [];
  const seen = new Set<string>();
  for (const cfg of configs ?? []) {
    const d = compileCustomDetector(cfg);
    if (seen.has(d.name)) throw new DetectorConfigError(d.name, 'a detector with this name is defined twice');
    seen.add(d.name);
    out.push(d);
  }
  return out;
}
