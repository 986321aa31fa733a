/**
 * Cost of the policy on the hot path of a call: a cached decision (`checkCall`, rate limits
 * included) plus the lookup of the output and input pipelines, as the layer does for every tool
 * call, under four profiles and two principals. Also the first, uncached plan of each of the 74
 * catalog tools. Prints the median and p95 per call over several rounds. Target: a cached
 * decision plus pipeline lookup under 5 µs.
 *
 * Run: pnpm --filter @cloudg/policy bench
 */
import { createLogger, type Principal, type ToolSpec } from '@cloudg/core';
import { TokenVault } from '@cloudg/privacy';
import { Policy } from '../src/index.js';
import { catalogRegistry } from '../test/fixtures/catalog.js';
import { as, local } from '../test/helpers.js';

const ROUNDS = 15;
const PER_ROUND = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const logger = createLogger({ level: 'silent' });
const vault = new TokenVault({ key: 'bench', saveOnExit: false });
const registry = catalogRegistry();
const tools = [...registry.tools.values()];
const call = { kind: 'tool' as const, name: '', arguments: { ref: 'web-1' } };

// Buckets refill between calls: the bench measures the work, not the throttling.
let tick = 0;
const clock = () => (tick += 1);

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function perCall(run: () => void): { median: number; p95: number } {
  for (let i = 0; i < PER_ROUND; i++) run();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) run();
    rounds.push(Number(process.hrtime.bigint() - start) / PER_ROUND / 1000);
  }
  rounds.sort((a, b) => a - b);
  return { median: quantile(rounds, 0.5), p95: quantile(rounds, 0.95) };
}

function hotPath(policy: Policy, spec: ToolSpec, principal: Principal): () => void {
  return () => {
    policy.isAllowed(spec, principal);
    policy.checkCall(spec, principal, call);
    policy.inputPipeline(spec, principal);
    policy.outputPipeline(spec, principal);
  };
}

const spec = registry.tools.get('get_asset') as ToolSpec;
const cases: [string, Principal][] = [
  ['open', local],
  ['standard', local],
  ['strict', local],
  ['soc-analyst', as('analyst', 'ann')],
  ['soc-analyst', as('lead', 'lee')],
];

console.log(`policy hot path: isAllowed + checkCall + input and output pipeline lookup (get_asset)`);
console.log(`${ROUNDS} rounds of ${PER_ROUND} calls; µs per call\n`);
console.log('profile         principal   median    p95   decisions only');
for (const [profile, principal] of cases) {
  const policy = Policy.load(profile, { logger, vault, clock });
  report(profile, principal, policy);
}
// soc-analyst keeps every call in its decision log (audit: true); without it:
report(
  'soc (no audit)',
  as('analyst', 'ann'),
  Policy.load('soc-analyst', { logger, vault, clock }).derive({ audit: false }),
);

function report(profile: string, principal: Principal, policy: Policy): void {
  const full = perCall(hotPath(policy, spec, principal));
  const decision = perCall(() => policy.decide(spec, principal));
  console.log(
    `${profile.padEnd(15)} ${principal.id.padEnd(10)} ${full.median.toFixed(3).padStart(7)} ${full.p95
      .toFixed(3)
      .padStart(6)}   ${decision.median.toFixed(3)}`,
  );
}

// First use: every plan is built (rules matched, decision made, pipelines assembled and built).
for (const profile of ['standard', 'strict', 'soc-analyst']) {
  const policy = Policy.load(profile, { logger, vault, clock });
  const start = process.hrtime.bigint();
  for (const tool of tools) {
    policy.isAllowed(tool, local);
    policy.outputPipeline(tool, local);
    policy.inputPipeline(tool, local);
  }
  const us = Number(process.hrtime.bigint() - start) / 1000 / tools.length;
  console.log(`\nfirst plan per tool (${profile}, ${tools.length} tools): ${us.toFixed(1)} µs per tool`);
}

const target = 5;
const policy = Policy.load('strict', { logger, vault, clock });
const { median } = perCall(hotPath(policy, spec, local));
console.log(
  `\nstrict hot path ${median.toFixed(3)} µs: ${(median / target).toFixed(2)}x the ${target} µs target`,
);
