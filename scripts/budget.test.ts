/**
 * The suite's time budgets (.ci/budget.mjs): read from CONTRIBUTING.md's table, and a failing
 * line with exit status 1 for the suite or a task over its budget, as `.ci/run` uses it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { overBudget, readBudgets, taskSeconds } from '../.ci/budget.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, '.ci/budget.mjs');
const budgets = readBudgets(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'cloudg-budget-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A turbo run summary with these test tasks (seconds each) and a build that is not a test. */
function summary(tasks: Record<string, number>): string {
  const file = join(work, `summary-${Object.keys(tasks).join('-').replace(/\W/g, '')}.json`);
  const entry = (taskId: string, seconds: number) => ({
    taskId,
    task: taskId.split('#')[1],
    execution: { startTime: 1_000, endTime: 1_000 + seconds * 1000, exitCode: 0 },
    cache: { status: 'MISS' },
  });
  writeFileSync(
    file,
    JSON.stringify({
      tasks: [entry('@cloudg/core#build', 9_999), ...Object.entries(tasks).map(([id, s]) => entry(id, s))],
    }),
  );
  return file;
}

describe('the test time budgets', () => {
  it("are CONTRIBUTING.md's table: the whole suite, named tasks and a default", () => {
    expect(budgets.total).toBeGreaterThan(0);
    expect(budgets.other).toBeGreaterThan(0);
    expect(budgets.byTask.get('@cloudg/catalog#test')).toBeGreaterThan(budgets.other - 1);
  });

  it('name the suite and each task over its budget, and nothing within', () => {
    const tasks = taskSeconds(
      JSON.parse(
        readFileSync(summary({ '@cloudg/core#test': budgets.other + 5, '@cloudg/policy#test': 3 }), 'utf8'),
      ),
    );
    expect(tasks.map((t: { task: string }) => t.task)).toEqual(['@cloudg/core#test', '@cloudg/policy#test']);
    expect(overBudget(budgets.total + 1, tasks, budgets)).toEqual([
      `pnpm test took ${budgets.total + 1} s, over its budget of ${budgets.total} s`,
      `@cloudg/core#test took ${budgets.other + 5} s, over its budget of ${budgets.other} s`,
    ]);
    expect(overBudget(budgets.total, tasks.slice(1), budgets)).toEqual([]);
  });

  it('fail the CI check (exit 1, an over budget line) and pass it within', () => {
    const over = spawnSync(process.execPath, [SCRIPT, String(budgets.total + 60), summary({})], {
      encoding: 'utf8',
    });
    expect(over.status).toBe(1);
    expect(over.stdout).toContain(`over budget: pnpm test took ${budgets.total + 60} s`);
    const within = spawnSync(process.execPath, [SCRIPT, '100', summary({ '@cloudg/core#test': 10 })], {
      encoding: 'utf8',
    });
    expect(within.status).toBe(0);
    expect(within.stdout).toContain('suite time: pnpm test 100 s');
    expect(within.stdout).toContain('@cloudg/core#test 10 s');
  });
});
