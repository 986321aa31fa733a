/**
 * Recall and false positives of the standard pipeline on the detector corpus
 * (test/corpus/README.md): per family and overall, then every miss and every false positive.
 *
 *   pnpm --filter @cloudg/privacy bench:recall
 *
 * Targets from the issue: recall of at least 98% on the secrets, at most 5% of the near-misses
 * redacted or masked. test/detectors.corpus.test.ts fails below 95% recall or above 10% false
 * positives; this prints the figures. RECALL_TYPES=1 adds a line per credential type.
 */
import { groupBy, measure, NEAR_MISSES, type Rate, rate, SECRETS } from '../test/corpus/measure.js';

const pct = (r: Rate) => `${(100 * r.rate).toFixed(1).padStart(5)}%  (${r.hits}/${r.total})`;

const { secrets, nearMisses } = measure();
const types = new Set(SECRETS.map((s) => s.type));
console.log(
  `corpus: ${SECRETS.length} secrets of ${types.size} types, ${NEAR_MISSES.length} near-misses; each as a line under a neutral key and inside a JSON string, through the standard pipeline\n`,
);

console.log('recall (secrets no longer visible)');
for (const [family, list] of groupBy(secrets, (o) => o.entry.family)) {
  console.log(`  ${family.padEnd(16)} ${pct(rate(list, (o) => o.caught))}`);
}
for (const [placement, list] of groupBy(secrets, (o) => o.placement)) {
  console.log(`  ${`(${placement})`.padEnd(16)} ${pct(rate(list, (o) => o.caught))}`);
}
console.log(`  ${'overall'.padEnd(16)} ${pct(rate(secrets, (o) => o.caught))}   target >= 98%`);
if (process.env.RECALL_TYPES === '1') {
  console.log('\nrecall per type');
  for (const [type, list] of groupBy(secrets, (o) => o.entry.type)) {
    console.log(`  ${type.padEnd(24)} ${pct(rate(list, (o) => o.caught))}`);
  }
}

console.log('\nfalse positives (near-misses redacted, masked or dropped)');
for (const [kind, list] of groupBy(nearMisses, (o) => o.entry.kind)) {
  console.log(`  ${kind.padEnd(16)} ${pct(rate(list, (o) => o.flagged))}`);
}
console.log(`  ${'overall'.padEnd(16)} ${pct(rate(nearMisses, (o) => o.flagged))}   target <= 5%`);

const missed = secrets.filter((o) => !o.caught);
if (missed.length) {
  console.log('\nmissed');
  for (const o of missed) console.log(`  ${o.entry.type} (${o.placement}): ${o.entry.text.slice(0, 140)}`);
}
const flagged = nearMisses.filter((o) => o.flagged);
if (flagged.length) {
  console.log('\nfalse positives');
  for (const o of flagged) {
    const what = JSON.stringify({ ...o.report.redacted, ...o.report.masked, ...o.report.dropped });
    console.log(`  ${o.entry.kind} (${o.placement}) ${what}: ${o.entry.text.slice(0, 140)}`);
  }
}
