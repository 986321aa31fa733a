/**
 * Redaction strategies: parsing the configuration forms and their aliases.
 */
import { StrategyError } from '../errors.js';
import { isRecord } from '../util/options.js';

export type StrategyKind = 'redact' | 'mask' | 'hash' | 'pseudonymize' | 'generalize' | 'drop' | 'keep';

export interface Strategy {
  readonly kind: StrategyKind;
  readonly options: Readonly<Record<string, unknown>>;
}

/** Anything a policy may write for a strategy. */
export type StrategySpec =
  | string
  | boolean
  | null
  | ({ strategy?: string; type?: string; kind?: string } & Record<string, unknown>);

const ALIASES: Record<string, StrategyKind> = {
  redact: 'redact',
  replace: 'redact',
  mask: 'mask',
  hash: 'hash',
  pseudonymize: 'pseudonymize',
  pseudonymise: 'pseudonymize',
  tokenize: 'pseudonymize',
  tokenise: 'pseudonymize',
  generalize: 'generalize',
  generalise: 'generalize',
  bucket: 'generalize',
  drop: 'drop',
  remove: 'drop',
  keep: 'keep',
  none: 'keep',
  allow: 'keep',
};

const OPTIONS: Record<StrategyKind, readonly string[]> = {
  redact: ['text', 'template'],
  mask: ['char', 'keep_first', 'keep_last', 'preserve', 'max_length'],
  hash: ['length', 'template'],
  pseudonymize: ['as'],
  generalize: ['ipv4_prefix', 'ipv6_prefix', 'granularity', 'keep_labels', 'bucket'],
  drop: [],
  keep: [],
};

export const KEEP: Strategy = Object.freeze({ kind: 'keep', options: Object.freeze({}) });

/** The report key each strategy counts under. */
export const REPORT_KEY: Record<StrategyKind, string> = {
  redact: 'redacted',
  mask: 'masked',
  hash: 'hashed',
  pseudonymize: 'pseudonymized',
  generalize: 'generalized',
  drop: 'dropped',
  keep: 'kept',
};

function kindOf(name: unknown): StrategyKind {
  if (typeof name !== 'string') throw new StrategyError('the strategy name must be a string');
  const kind = ALIASES[name.toLowerCase().trim()];
  if (!kind)
    throw new StrategyError(`unknown strategy '${name}'`, { strategy: name, known: Object.keys(ALIASES) });
  return kind;
}

export function parseStrategy(spec: unknown): Strategy {
  if (spec === true) return { kind: 'redact', options: {} };
  if (spec === false || spec === null || spec === undefined) return KEEP;
  if (typeof spec === 'string') {
    const kind = kindOf(spec);
    return kind === 'keep' ? KEEP : { kind, options: {} };
  }
  if (!isRecord(spec)) throw new StrategyError('a strategy must be a name, a mapping or a boolean');
  const nameKey = 'strategy' in spec ? 'strategy' : 'type' in spec ? 'type' : 'kind' in spec ? 'kind' : null;
  if (!nameKey) throw new StrategyError("a strategy mapping needs 'strategy'");
  const kind = kindOf(spec[nameKey]);
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === nameKey) continue;
    if (!OPTIONS[kind].includes(k)) {
      throw new StrategyError(`unknown option '${k}' for strategy '${kind}'`, { strategy: kind, option: k });
    }
    options[k] = v;
  }
  if (kind === 'hash' && options.length !== undefined) {
    const n = options.length;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 4 || n > 64) {
      throw new StrategyError("hash 'length' must be an integer from 4 to 64", { option: 'length' });
    }
  }
  if (
    kind === 'mask' &&
    options.char !== undefined &&
    (typeof options.char !== 'string' || options.char === '')
  ) {
    throw new StrategyError("mask 'char' must be a non-empty string", { option: 'char' });
  }
  return { kind, options };
}
