/**
 * Timing for the benchmarks: wall time and process CPU time per run. On a shared two-core
 * machine the wall time grows with the load; the CPU time is what load distorts least.
 */
import { performance } from 'node:perf_hooks';

export interface Timing {
  median: number;
  min: number;
  max: number;
  /** Process CPU time per run (user + system), median. */
  cpu: number;
}

/** Process CPU time so far (user + system), in milliseconds. */
export const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The median (the lower of the two middle values for an even count); NaN for none. */
export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;

/** Run `fn` `runs` times (after `before`, untimed, each time) and summarise wall and CPU time. */
export async function time(runs: number, fn: (i: number) => unknown, before?: () => void): Promise<Timing> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const c = cpuMs();
    const t = performance.now();
    await fn(i);
    wall.push(performance.now() - t);
    cpu.push(cpuMs() - c);
  }
  return { median: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(cpu) };
}
