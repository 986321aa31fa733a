// The suite's time budgets, as CONTRIBUTING.md's "Test time budgets" table states them (the
// table is the only copy, so the documented figures are the enforced ones): the wall time of
// `pnpm test`, and each test task's time in turbo's run summary of it. Prints the slowest tasks,
// then a line for each figure over its budget, and exits 1 when there is one.
//
//   node .ci/budget.mjs <seconds pnpm test took> [turbo run summary .json]
//
// Without a summary file it takes the newest in .turbo/runs (TURBO_RUN_SUMMARY=true writes it).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOTAL = 'pnpm test';
const OTHER = 'any other test task';

/**
 * The budgets from the table under `## Test time budgets`: rows `| \`TASK\` | N s | why |`, where
 * TASK is `pnpm test` (the whole suite), a turbo task id (`@cloudg/catalog#test`), or the
 * `any other test task` row.
 */
export function readBudgets(markdown) {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Test time budgets'));
  if (!section) throw new Error('CONTRIBUTING.md has no "## Test time budgets" section');
  const byTask = new Map();
  for (const line of section.split('\n')) {
    const row = /^\|\s*(?:`([^`]+)`|([^|`]+?))\s*\|\s*(\d+)\s*s\s*\|/.exec(line);
    if (row) byTask.set((row[1] ?? row[2]).trim(), Number(row[3]));
  }
  const total = byTask.get(TOTAL);
  const other = byTask.get(OTHER);
  if (total === undefined || other === undefined)
    throw new Error(`the budgets table needs a \`${TOTAL}\` row and an "${OTHER}" row`);
  byTask.delete(TOTAL);
  byTask.delete(OTHER);
  return { total, other, byTask };
}

/** Seconds each test task ran, from a turbo run summary (cache hits take about none). */
export function taskSeconds(summary) {
  return (summary.tasks ?? [])
    .filter((task) => /^test(:|$)/.test(task.task) && task.execution)
    .map((task) => ({
      task: task.taskId,
      seconds: (task.execution.endTime - task.execution.startTime) / 1000,
      cached: task.cache?.status === 'HIT',
    }));
}

/** A line for each figure over its budget; none when all are within. */
export function overBudget(totalSeconds, tasks, budgets) {
  const lines = [];
  if (totalSeconds > budgets.total)
    lines.push(`${TOTAL} took ${Math.round(totalSeconds)} s, over its budget of ${budgets.total} s`);
  for (const { task, seconds } of tasks) {
    const budget = budgets.byTask.get(task) ?? budgets.other;
    if (seconds > budget) lines.push(`${task} took ${Math.round(seconds)} s, over its budget of ${budget} s`);
  }
  return lines;
}

function newestSummary(root) {
  const dir = join(root, '.turbo/runs');
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const [secondsArg, summaryArg] = process.argv.slice(2);
  const budgets = readBudgets(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
  const summaryFile = summaryArg ?? newestSummary(root);
  const tasks = summaryFile ? taskSeconds(JSON.parse(readFileSync(summaryFile, 'utf8'))) : [];
  const slowest = [...tasks].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  console.log(
    `suite time: ${TOTAL} ${Math.round(Number(secondsArg))} s (budget ${budgets.total} s); slowest tasks: ` +
      (slowest.map((t) => `${t.task} ${Math.round(t.seconds)} s`).join(', ') || 'no run summary'),
  );
  const lines = overBudget(Number(secondsArg), tasks, budgets);
  for (const line of lines) console.log(`over budget: ${line}`);
  process.exit(lines.length > 0 ? 1 : 0);
}
