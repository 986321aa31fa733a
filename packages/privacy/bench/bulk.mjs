/**
 * Bulk throughput of the standard and strict pipelines on the 16.1 payload.
 *
 *   pnpm --filter @cloudg/privacy bench        (builds dist first)
 *
 * Each scenario runs in a fresh child process so peak RSS is its own; baseline and standard
 * repeat five times there and report their run of median CPU time with the spread. Prints the time per
 * stage, peak RSS, vault entries, and the ratio to a baseline pass that only walks (copies)
 * the value and serialises it. Targets from the issue: standard <= 1.5 s and <= 3x baseline,
 * strict cold <= 6 s, strict warm <= 3 s. Figures only; nothing here asserts a time.
 * BENCH_CACHE_SIZE=<n> overrides the strict redactor's `cache_size` for experiments.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildPayload } from './payload.mjs';

const here = fileURLToPath(import.meta.url);

const STANDARD = [
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

const STRICT = [
  { type: 'sanitize', options: { on_suspicious: 'fence', max_free_text: 1000 } },
  {
    type: 'redact',
    options: {
      strategies: {
        secret: 'redact',
        private_key: 'drop',
        credential: 'redact',
        identifier: 'pseudonymize',
        uuid: 'keep',
        network: 'pseudonymize',
        special_ip: 'keep',
        special_cidr: 'keep',
        pii: 'pseudonymize',
        free_text: 'pseudonymize',
        temporal: 'keep',
      },
      ...(process.env.BENCH_CACHE_SIZE ? { cache_size: Number(process.env.BENCH_CACHE_SIZE) } : {}),
    },
  },
  {
    type: 'project',
    options: { exclude: ['**.raw_data', '**._raw', '**.user_data'], max_string: 4000, max_chars: 100000 },
  },
  { type: 'annotate' },
];

function copyWalk(v) {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyWalk);
  const out = {};
  for (const k of Object.keys(v)) out[k] = copyWalk(v[k]);
  return out;
}

function ms(t0) {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** CPU milliseconds (user + system) since `c0`: robust when other jobs share the machine. */
function cpu(c0) {
  const d = process.cpuUsage(c0);
  return Math.round((d.user + d.system) / 1000);
}

/** Baseline and standard runs repeat in their child; the figures are the run of median CPU. */
const REPEATS = 5;

/** The run of median CPU time, with the spread of CPU times over all runs. */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.cpu_ms - b.cpu_ms);
  return { ...sorted[sorted.length >> 1], cpu_spread: [sorted[0].cpu_ms, sorted.at(-1).cpu_ms] };
}

async function child(scenario) {
  const lib = await import('../dist/index.js');
  // Dumped and parsed like a dataset file, so strings are flat as they are in real results.
  const dumped = JSON.stringify(buildPayload());
  const payload = JSON.parse(dumped);
  const bytes = dumped.length;
  const out = { scenario, payload_mb: +(bytes / 1e6).toFixed(1) };

  const runPipeline = (specs, vault) => {
    const pipeline = lib.buildPipeline(specs, { vault, profile: scenario });
    const ctx = { direction: 'output', report: {}, kind: 'tool', name: 'bulk', sensitivity: 'confidential' };
    const stages = {};
    let value = payload;
    // Start each measured run from a clean heap, so it does not pay for the payload's garbage.
    globalThis.gc?.();
    const stagesCpu = {};
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const t of pipeline.transforms) {
      const ts = process.hrtime.bigint();
      const cs = process.cpuUsage();
      value = t.apply(value, ctx);
      stages[t.name] = +ms(ts).toFixed(0);
      stagesCpu[t.name] = cpu(cs);
    }
    const tsz = process.hrtime.bigint();
    const text = JSON.stringify(value);
    stages.serialise = +ms(tsz).toFixed(0);
    return {
      total_ms: +ms(t0).toFixed(0),
      cpu_ms: cpu(c0),
      stages,
      stages_cpu: stagesCpu,
      output_chars: text.length,
    };
  };

  if (scenario === 'baseline') {
    const runs = [];
    for (let i = 0; i < REPEATS; i++) {
      globalThis.gc?.();
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const copy = copyWalk(payload);
      const text = JSON.stringify(copy);
      runs.push({ total_ms: +ms(t0).toFixed(0), cpu_ms: cpu(c0), output_chars: text.length });
    }
    Object.assign(out, medianRun(runs));
  } else if (scenario === 'standard') {
    const vault = new lib.TokenVault({ key: 'bench-key', saveOnExit: false });
    out.run = medianRun(Array.from({ length: REPEATS }, () => runPipeline(STANDARD, vault)));
  } else {
    const vault = new lib.TokenVault({ key: 'bench-key', saveOnExit: false });
    out.cold = runPipeline(STRICT, vault);
    out.vault_entries = vault.stats().entries;
    out.warm = runPipeline(STRICT, vault);
  }
  out.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function run(scenario) {
  const text = execFileSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=4096', '--max-semi-space-size=64', here, scenario],
    { encoding: 'utf8' },
  );
  return JSON.parse(text.trim().split('\n').pop());
}

function fmtStages(s) {
  return Object.entries(s)
    .map(([k, v]) => `${k} ${v} ms`)
    .join(', ');
}

function main() {
  const baseline = run('baseline');
  const standard = run('standard');
  const strict = run('strict');
  const b = baseline.total_ms;
  const bc = baseline.cpu_ms;
  console.log(
    `payload: ${baseline.payload_mb} MB of JSON, 50,000 assets; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
  );
  const spread = (r) =>
    r.cpu_spread ? `, CPU ${r.cpu_spread[0]}-${r.cpu_spread[1]} ms over ${REPEATS} runs` : '';
  console.log(
    `baseline (walk + copy + serialise): ${b} ms wall, ${bc} ms CPU${spread(baseline)}, peak RSS ${baseline.peak_rss_mb} MB`,
  );
  const line = (label, r, rss, target) => {
    console.log(
      `${label.padEnd(12)} ${String(r.total_ms).padStart(6)} ms wall (${(r.total_ms / b).toFixed(2)}x baseline), ${String(r.cpu_ms).padStart(6)} ms CPU (${(r.cpu_ms / bc).toFixed(2)}x baseline CPU${spread(r)}); target ${target}; peak RSS ${rss} MB`,
    );
    console.log(`${''.padEnd(12)} wall: ${fmtStages(r.stages)}`);
    console.log(`${''.padEnd(12)} CPU:  ${fmtStages(r.stages_cpu)}`);
  };
  line('standard', standard.run, standard.peak_rss_mb, '<= 1500 ms, <= 3x');
  line('strict cold', strict.cold, strict.peak_rss_mb, '<= 6000 ms');
  line('strict warm', strict.warm, strict.peak_rss_mb, '<= 3000 ms');
  console.log(`strict vault entries: ${strict.vault_entries}`);
}

const scenario = process.argv[2];
if (scenario) await child(scenario);
else main();
