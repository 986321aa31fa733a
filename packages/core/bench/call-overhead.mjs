/**
 * Overhead of `layer.callTool` on a trivial tool with the allow-all policy, with no middleware
 * and with three built-in middlewares (audit log to a discarding stream, metrics, concurrency
 * limit). Prints the median and p95 per call and the overhead over calling the handler directly.
 * Target: a median overhead under 20 µs.
 *
 * Run: pnpm --filter @cloudg/core bench   (builds first; plain node on the built package, as users
 * run it, with no TypeScript loader in the measured path)
 */
import { Writable } from 'node:stream';
import {
  AuditLogMiddleware,
  ConcurrencyLimitMiddleware,
  Layer,
  MetricsMiddleware,
  Principal,
  Registry,
} from '@cloudg/core';
import * as z from 'zod';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const WARMUP = 2_000;

const registry = new Registry();
const handler = (_ctx, args) => ({ ok: true, x: args.x });
registry.tool({ name: 'noop', input: { x: z.number().int().default(1) }, handler });

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function measure(label, run) {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples = new Array(ITERATIONS);
  for (let i = 0; i < ITERATIONS; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  samples.sort((a, b) => a - b);
  const result = { median: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
  console.log(
    `${label.padEnd(34)} median ${result.median.toFixed(2).padStart(8)} µs   p95 ${result.p95.toFixed(2).padStart(8)} µs`,
  );
  return result;
}

const discard = new Writable({ write: (_chunk, _enc, done) => done() });
const three = [
  new AuditLogMiddleware({ stream: discard, salt: 'bench' }).middleware,
  new MetricsMiddleware().middleware,
  new ConcurrencyLimitMiddleware({ limit: 64 }).middleware,
];

const bare = new Layer({ registry });
const stacked = new Layer({ registry, middleware: three });
const principal = Principal.local();
const args = { x: 2 };

console.log(`callTool overhead, ${ITERATIONS} calls each (Node ${process.version})`);
const direct = await measure('handler called directly', () => handler(undefined, args));
const plain = await measure('callTool, no middleware', () => bare.callTool('noop', args, { principal }));
const withMw = await measure('callTool, three middlewares', () =>
  stacked.callTool('noop', args, { principal }),
);

// The direct call's median is the handler's own cost; its p95 is mostly GC noise, so both
// overheads are taken against the direct median.
const overhead = (m) => ({
  median: m.median - direct.median,
  p95: m.p95 - direct.median,
});
const o1 = overhead(plain);
const o2 = overhead(withMw);
console.log('');
console.log(`overhead without middleware: median ${o1.median.toFixed(2)} µs, p95 ${o1.p95.toFixed(2)} µs`);
console.log(
  `overhead with three middlewares: median ${o2.median.toFixed(2)} µs, p95 ${o2.p95.toFixed(2)} µs`,
);
console.log(`ratio three middlewares / none (median): ${(withMw.median / plain.median).toFixed(2)}`);
console.log(`target median overhead < 20 µs: ${o1.median < 20 && o2.median < 20 ? 'met' : 'NOT met'}`);
