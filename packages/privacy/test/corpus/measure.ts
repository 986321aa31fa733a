/**
 * Recall and false positives of the standard pipeline on the detector corpus (README.md here):
 * every secret in its context line, as a string under a neutral key and inside a JSON string;
 * every near-miss the same way. Shared by test/detectors.corpus.test.ts (thresholds) and
 * bench/recall.ts (the report).
 */
import { readFileSync } from 'node:fs';
import { buildPipeline, type TransformReport, type TransformSpec } from '../../src/index.js';

export interface CorpusSecret {
  /** Provider group, for the per-family figures. */
  family: string;
  /** The credential format. */
  type: string;
  /** What must not survive: the secret as it appears in `text`. */
  secret: string;
  /** A realistic line holding it. */
  text: string;
  /** Where the format or the sample comes from. */
  source: string;
}

export interface NearMiss {
  kind: 'placeholder' | 'cloud_value' | 'other';
  text: string;
  source: string;
}

const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;

export const SECRETS: readonly CorpusSecret[] = read('./secrets.json');
export const NEAR_MISSES: readonly NearMiss[] = read('./near-misses.json');

/** The output transforms of packages/policy/profiles/standard.yaml. */
export const STANDARD_TRANSFORMS: TransformSpec[] = [
  { type: 'sanitize', options: { on_suspicious: 'fence', max_free_text: 2000 } },
  {
    type: 'redact',
    options: {
      strategies: {
        secret: 'redact',
        private_key: 'drop',
        credential: { strategy: 'mask', keep_first: 4, keep_last: 4 },
      },
    },
  },
  { type: 'project', options: { exclude: ['**.raw_data', '**._raw'], max_string: 20000, max_chars: 120000 } },
  { type: 'annotate' },
];

/** Keys that no key rule reads as sensitive: only content detectors can find what is under them. */
const NEUTRAL_KEYS = ['description', 'notes', 'value', 'command', 'output', 'message', 'details', 'comment'];

export type Placement = 'text' | 'json';
export const PLACEMENTS: readonly Placement[] = ['text', 'json'];

/** The document a case is run on: the line under a neutral key, or inside a JSON string. */
export function place(text: string, placement: Placement, i: number): Record<string, unknown> {
  const key = NEUTRAL_KEYS[i % NEUTRAL_KEYS.length]!;
  if (placement === 'text') return { [key]: text };
  const inner = NEUTRAL_KEYS[(i + 3) % NEUTRAL_KEYS.length]!;
  return { [key]: JSON.stringify({ id: `item-${i}`, [inner]: text }) };
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

/** Whether the secret, as is or JSON-escaped, still shows anywhere in the output. */
function shows(output: unknown, secret: string): boolean {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return strings(output).some((s) => s.includes(secret) || s.includes(escaped));
}

function acted(report: TransformReport): boolean {
  const r = report as Record<string, unknown>;
  return ['redacted', 'masked', 'dropped', 'hashed'].some(
    (k) => r[k] !== undefined && Object.keys(r[k] as object).length > 0,
  );
}

export interface SecretOutcome {
  entry: CorpusSecret;
  placement: Placement;
  caught: boolean;
}

export interface NearMissOutcome {
  entry: NearMiss;
  placement: Placement;
  flagged: boolean;
  /** What the pipeline did, for the report. */
  report: TransformReport;
}

export interface Measurement {
  secrets: SecretOutcome[];
  nearMisses: NearMissOutcome[];
}

/** Runs every case through one standard pipeline (built once, as a server does). */
export function measure(): Measurement {
  const pipeline = buildPipeline(STANDARD_TRANSFORMS, { profile: 'standard' });
  const run = (doc: Record<string, unknown>) =>
    pipeline.run(doc, { direction: 'output', principal: { id: 'corpus', roles: [] } });
  const secrets: SecretOutcome[] = [];
  SECRETS.forEach((entry, i) => {
    for (const placement of PLACEMENTS) {
      const { value } = run(place(entry.text, placement, i));
      secrets.push({ entry, placement, caught: !shows(value, entry.secret) });
    }
  });
  const nearMisses: NearMissOutcome[] = [];
  NEAR_MISSES.forEach((entry, i) => {
    for (const placement of PLACEMENTS) {
      const { report } = run(place(entry.text, placement, i));
      nearMisses.push({ entry, placement, flagged: acted(report), report });
    }
  });
  return { secrets, nearMisses };
}

export interface Rate {
  hits: number;
  total: number;
  rate: number;
}

export function rate<T>(items: readonly T[], hit: (t: T) => boolean): Rate {
  const hits = items.filter(hit).length;
  return { hits, total: items.length, rate: items.length ? hits / items.length : 0 };
}

/** `items` grouped by `key`, in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let list = out.get(k);
    if (!list) {
      list = [];
      out.set(k, list);
    }
    list.push(item);
  }
  return out;
}
