/**
 * Worst-case cost of every built-in detector, and of the whole standard pipeline, on inputs
 * built to make a backtracking regex slow (see adversarial.ts).
 *
 *   pnpm --filter @cloudg/privacy bench:detectors      (also the last step of `bench`)
 *
 * For each detector: every adversarial input of BENCH_MB megabytes (default 1), plus a line
 * holding every hint so the prefilter lets it through, scanned by that detector alone; prints
 * the worst time in ms per MB and the input that caused it. Then the standard pipeline
 * (sanitize, redact, project, annotate as in policy/profiles/standard.yaml) over a 4 MiB
 * string argument and a 4 MiB object of many strings, each run with a freshly built pipeline
 * (no cached scan results). Last, what windows.ts buys for a custom detector whose pattern is
 * quadratic. Targets from the issue: every detector under 50 ms per MB, the standard pipeline
 * over 4 MiB under 1 s. Figures only; nothing here asserts a time.
 *
 * BENCH_ONLY=<detector name> limits the detector table to one row; BENCH_DETECTORS=0,
 * BENCH_PIPELINE=0 and BENCH_CUSTOM=0 skip a part; BENCH_MB sets the detector input size.
 */
import os from 'node:os';
import { builtinDetectors } from '../src/detectors/builtin.js';
import { DetectorSet } from '../src/detectors/scan.js';
import { buildPipeline, compileCustomDetector, type TransformSpec } from '../src/index.js';
import { compileInjectionPatterns, looksLikeInjection } from '../src/transforms/injection.js';
import { ADVERSARIAL_UNITS, adversarialInputs, hintLine, repeatTo } from './adversarial.js';

const MB = 1_000_000;
const SIZE_MB = Number(process.env.BENCH_MB ?? 1);
const ONLY = process.env.BENCH_ONLY;
const REPEAT = 5;
const PIPELINE_BYTES = 4 * 1024 * 1024;

/** The standard profile's output transforms (packages/policy/profiles/standard.yaml). */
const STANDARD: TransformSpec[] = [
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

interface Subject {
  name: string;
  scan: (text: string) => unknown;
}

function subjects(): Subject[] {
  const detectors = builtinDetectors();
  const out: Subject[] = detectors.map((d) => {
    const set = new DetectorSet([d]);
    return { name: d.name, scan: (t: string) => set.scan(t) };
  });
  const all = new DetectorSet(detectors);
  out.push({ name: '(all detectors together)', scan: (t) => all.scan(t) });
  const injection = compileInjectionPatterns();
  out.push({ name: '(sanitize: injection)', scan: (t) => looksLikeInjection(t, injection) });
  return out.filter((s) => !ONLY || s.name === ONLY);
}

/**
 * One timed pass over every input for every subject, then the three slowest inputs of each
 * subject again, REPEAT times: the figure is the worst of those medians, so one garbage
 * collection in the first pass does not decide it.
 */
function detectorTable(): void {
  const list = subjects();
  const hints = hintLine(builtinDetectors().flatMap((d) => d.hints));
  const size = Math.round(SIZE_MB * MB);
  const build = (text: string) => text.slice(0, size - hints.length) + hints;
  // Warm-up: every regex compiled to native code and every scan path optimised.
  for (const [, text] of adversarialInputs(20_000)) for (const s of list) s.scan(build(text));
  const first = new Map<string, Array<[string, number]>>(list.map((s) => [s.name, []]));
  let count = 0;
  for (const [name, raw] of adversarialInputs(size)) {
    const text = build(raw);
    count++;
    for (const s of list) first.get(s.name)!.push([name, time(() => s.scan(text))]);
  }
  const retry = new Map<string, string[]>(
    list.map((s) => [
      s.name,
      first
        .get(s.name)!
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([n]) => n),
    ]),
  );
  const wanted = new Set([...retry.values()].flat());
  const worst = new Map<string, [number, string]>(list.map((s) => [s.name, [0, '']]));
  for (const [name, raw] of adversarialInputs(size)) {
    if (!wanted.has(name)) continue;
    const text = build(raw);
    for (const s of list) {
      if (!retry.get(s.name)!.includes(name)) continue;
      const perMb = median(Array.from({ length: REPEAT }, () => time(() => s.scan(text)))) / SIZE_MB;
      if (perMb > worst.get(s.name)![0]) worst.set(s.name, [perMb, name]);
    }
  }
  console.log(`detectors: ${count} adversarial inputs of ${SIZE_MB} MB each; worst median of ${REPEAT}`);
  console.log(`${'detector'.padEnd(26)} ${'worst ms/MB'.padStart(11)}  worst input`);
  let overall = 0;
  for (const s of list) {
    const [perMb, name] = worst.get(s.name)!;
    if (!s.name.startsWith('(')) overall = Math.max(overall, perMb);
    console.log(`${s.name.padEnd(26)} ${perMb.toFixed(1).padStart(11)}  ${name}`);
  }
  console.log(`worst single detector: ${overall.toFixed(1)} ms/MB (target < 50)`);
}

/** A 4 MiB string made of slices of every adversarial input, so each pattern meets its worst case. */
function mixedString(bytes: number): string {
  const units = Object.values(ADVERSARIAL_UNITS);
  const slice = Math.floor(bytes / units.length);
  return units
    .map((u) => repeatTo(u, slice))
    .join('')
    .padEnd(bytes, 'x');
}

/**
 * A 4 MiB object of many strings: realistic cloud values mixed with adversarial ones. Every
 * string is distinct, so the redactor's per-string cache does not help.
 */
function manyStrings(bytes: number): Record<string, unknown> {
  const units = Object.values(ADVERSARIAL_UNITS);
  const items: Record<string, unknown>[] = [];
  let total = 0;
  for (let i = 0; total < bytes; i++) {
    const unit = units[i % units.length]!;
    const item = {
      name: `web-${i}`,
      arn: `arn:aws:ec2:us-east-1:123456789012:instance/i-0abc${String(i).padStart(13, '0')}`,
      private_ip: `10.0.${i % 256}.${(i * 7) % 256}`,
      description: `${i} ${repeatTo(unit, 600)}`,
      metadata: { note: `${i} ${repeatTo(unit, 1500)}`, user_data: `password=${unit}${i}` },
      tags: { Owner: `user${i}@example.com`, env: 'prod', Long: `${i} ${repeatTo(unit, 1200)}` },
    };
    total += JSON.stringify(item).length;
    items.push(item);
  }
  return { assets: items };
}

function pipelineRuns(): void {
  const cases: Array<[string, () => unknown]> = [
    ['4 MiB string argument, every adversarial unit', () => ({ query: mixedString(PIPELINE_BYTES) })],
    ['4 MiB string argument, "a-" run', () => ({ query: repeatTo('a-', PIPELINE_BYTES) })],
    ['4 MiB string argument, "https://a" repeated', () => ({ query: repeatTo('https://a', PIPELINE_BYTES) })],
    ['4 MiB string argument, "<" and spaces', () => ({ query: `<${' '.repeat(PIPELINE_BYTES)}` })],
    ['4 MiB tag value, "a.b+c-" run', () => ({ tags: { Owner: repeatTo('a.b+c-', PIPELINE_BYTES) } })],
    ['4 MiB JSON object of many strings', () => manyStrings(PIPELINE_BYTES)],
  ];
  console.log(
    `\nstandard pipeline (sanitize, redact, project, annotate), fresh pipeline per run, median of ${REPEAT}:`,
  );
  for (const [name, make] of cases) {
    const value = make();
    const times = Array.from({ length: REPEAT }, () => {
      // A fresh pipeline each time: no scan result cached by an earlier run.
      const pipeline = buildPipeline(STANDARD, { profile: 'standard' });
      const ctx = { direction: 'output' as const, report: {}, kind: 'tool' as const, name: 'bench' };
      return time(() => pipeline.apply(value, ctx));
    });
    const ms = median(times);
    console.log(
      `${name.padEnd(46)} ${ms.toFixed(0).padStart(6)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; target < 1000)`,
    );
  }
}

/**
 * A custom detector whose pattern is quadratic on a run of letters (`[a-z]+\d` retries the
 * rest of the run from every letter): the whole string at two sizes shows the growth, the
 * windowed scan of 1 MB what a request can cost with such a pattern in a policy.
 */
function customRuns(): void {
  const custom = compileCustomDetector({ name: 'quadratic', pattern: '[a-z]+\\d' });
  const windowed = new DetectorSet([custom]);
  const whole = (text: string) => {
    const re = new RegExp(custom.pattern.source, 'g');
    while (re.exec(text) !== null);
  };
  const ms = (fn: () => void) => median([1, 2, 3].map(() => time(fn))).toFixed(0);
  console.log('\ncustom detector [a-z]+\\d (quadratic) over a run of letters, median of 3:');
  for (const size of [32_000, 64_000]) {
    const text = 'a'.repeat(size);
    console.log(`  whole string, ${size / 1000} KB: ${ms(() => whole(text))} ms`);
  }
  const text = 'a'.repeat(MB);
  console.log(`  in windows (as scanned), 1 MB: ${ms(() => windowed.scan(text))} ms`);
}

console.log(
  `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs, Node ${process.version}`,
);
if (process.env.BENCH_DETECTORS !== '0') detectorTable();
if (!ONLY && process.env.BENCH_PIPELINE !== '0') pipelineRuns();
if (!ONLY && process.env.BENCH_CUSTOM !== '0') customRuns();
