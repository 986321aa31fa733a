/**
 * Start-up time of the built `cloudg-mcp`: how long a person waits for `--help`, for `config`, and
 * for `serve` to be ready to take a connection. Each is a fresh Node process running dist/bin.js,
 * as a shell or a desktop client starts it; the figures are wall times (the median, with the
 * fastest and slowest run), which grow with the machine's load, so the load is printed too.
 *
 *   pnpm --filter @cloudg/cli bench            (builds first)
 *   RUNS=9 npx tsx bench/startup.ts            (after a build)
 *   CLOUDG_BIN=/other/dist/bin.js npx tsx bench/startup.ts   (another build, to compare)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const BIN = process.env.CLOUDG_BIN ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 7);
/** The start-up line `serve --transport http` prints once it listens. */
const READY = /Connect a client:/;

interface Case {
  label: string;
  args: string[];
  /** Stop timing when stderr matches this (the process is then ended); else at exit. */
  readyOn?: RegExp;
}

const CASES: Case[] = [
  { label: '--help', args: ['--help'] },
  { label: 'config', args: ['config'] },
  { label: 'config --dataset', args: ['config', '--dataset', `prod=${BIN}`] },
  { label: 'serve http, until ready', args: ['serve', '--transport', 'http', '--port', '0'], readyOn: READY },
  {
    label: 'serve http --sample, until ready',
    args: ['serve', '--transport', 'http', '--port', '0', '--sample'],
    readyOn: READY,
  },
];

/** One run: milliseconds from spawning the process to its exit, or to its ready line. */
function once(c: Case): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...c.args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CLOUDG_LOG_LEVEL: 'WARNING' },
    });
    let stderr = '';
    let done = false;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!done && c.readyOn?.test(stderr)) {
        done = true;
        resolve(performance.now() - started);
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (done) return;
      done = true;
      if (c.readyOn || code !== 0) reject(new Error(`${c.label}: exited ${code} before ready\n${stderr}`));
      else resolve(performance.now() - started);
    });
  });
}

/** Resolves once the child of the previous run is gone, so runs do not overlap. */
const settle = () => new Promise((r) => setTimeout(r, 50));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`.padStart(8);

if (!existsSync(BIN)) {
  console.error(`No ${BIN}: build the CLI first (pnpm turbo run build --filter=@cloudg/cli...).`);
  process.exit(1);
}
console.log(`${BIN}: start-up, ${RUNS} runs each, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)}`);
console.log(`${'command'.padEnd(36)}  median      min      max`);
for (const c of CASES) {
  await once(c); // warm the file cache; not counted
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(await once(c));
    await settle();
  }
  console.log(
    `${c.label.padEnd(36)}${ms(median(times))} ${ms(Math.min(...times))} ${ms(Math.max(...times))}`,
  );
}
console.log(`load after: ${loadavg()[0]!.toFixed(2)}`);
