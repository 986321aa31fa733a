#!/usr/bin/env node
/**
 * Checks the package arrows of ../shared/ARCHITECTURE.md with dependency-cruiser and the rules in
 * .dependency-cruiser.cjs: every import of another package is declared in package.json, goes
 * through that package's entry point, and points the way the architecture allows.
 *
 *   node scripts/check-deps.mjs [ROOT]      (pnpm check-deps)
 *
 * ROOT defaults to the repository; its packages/ and apps/ are cruised. Prints each violation
 * and exits 1 when there is any.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = join(REPO, '.dependency-cruiser.cjs');

/**
 * The violations in the workspace at `root`: `{ rule, from, to, comment }` each, sorted.
 * @param {string} root
 */
export async function checkDeps(root = REPO) {
  const options = await extractDepcruiseOptions(CONFIG);
  const targets = ['packages', 'apps'].filter((dir) => existsSync(join(root, dir)));
  const previous = process.cwd();
  // dependency-cruiser reads paths (and matches the rules' paths) relative to the working directory.
  process.chdir(root);
  try {
    const { output } = await cruise(targets, { ...options, baseDir: root });
    return output.summary.violations
      .map((v) => ({
        rule: v.rule.name,
        from: v.from,
        to: v.to,
        comment: output.summary.ruleSetUsed.forbidden.find((r) => r.name === v.rule.name)?.comment ?? '',
      }))
      .sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
  } finally {
    process.chdir(previous);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = await checkDeps(resolve(process.argv[2] ?? REPO));
  for (const v of violations) console.error(`${v.rule}: ${v.from} -> ${v.to}\n  ${v.comment}`);
  console.error(
    violations.length === 0
      ? 'check-deps: every import follows the package arrows'
      : `check-deps: ${violations.length} violation(s)`,
  );
  process.exitCode = violations.length === 0 ? 0 : 1;
}
