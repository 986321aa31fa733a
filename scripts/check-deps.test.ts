/**
 * The dependency check (check-deps.mjs, rules in .dependency-cruiser.cjs) fails on a workspace
 * that breaks each rule, and passes on this repository.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDeps } from './check-deps.mjs';

const FIXTURE = fileURLToPath(new URL('./fixtures/check-deps', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cloudg-check-deps-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The fixture as an installed workspace: every package finds every other one in its
 * node_modules (as a hoisting install would), so only package.json says what is declared.
 */
function installFixture(): string {
  const root = join(work, 'workspace');
  cpSync(FIXTURE, root, { recursive: true });
  const dirs = ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => ({ name, dir: join(root, group, name) })),
  );
  for (const { dir } of dirs) {
    mkdirSync(join(dir, 'node_modules/@cloudg'), { recursive: true });
    for (const other of dirs) {
      if (other.dir !== dir) symlinkSync(other.dir, join(dir, 'node_modules/@cloudg', other.name), 'dir');
    }
  }
  return root;
}

/** One broken arrow as scripts/check-deps.mjs reports it. */
interface Violation {
  rule: string;
  from: string;
  to: string;
  comment: string;
}

describe('check-deps', () => {
  it('reports every import against the package arrows in a workspace that breaks them', async () => {
    const violations: Violation[] = await checkDeps(installFixture());
    const found = violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`);
    expect(found.sort()).toEqual(
      [
        'unresolvable: apps/cli/src/index.ts -> ./missing.js',
        'server-below-cli: apps/server/src/index.ts -> apps/server/node_modules/@cloudg/cli/src/index.ts',
        'catalog-direction: packages/catalog/src/index.ts -> packages/catalog/node_modules/@cloudg/policy/src/index.ts',
        'runtime-dev-dependency: packages/catalog/src/index.ts -> packages/catalog/node_modules/@cloudg/policy/src/index.ts',
        'catalog-privacy-types-only: packages/catalog/src/index.ts -> packages/catalog/node_modules/@cloudg/privacy/src/index.ts',
        'deep-import: packages/core/src/index.ts -> packages/policy/src/profiles.ts',
        'policy-direction: packages/policy/src/index.ts -> packages/policy/node_modules/@cloudg/catalog/src/index.ts',
        'deep-import-by-name: packages/policy/src/index.ts -> @cloudg/core/src/index.js',
        'privacy-standalone: packages/privacy/src/index.ts -> packages/privacy/node_modules/@cloudg/core/src/index.ts',
        'undeclared-dependency: packages/privacy/src/index.ts -> packages/privacy/node_modules/@cloudg/core/src/index.ts',
        'transports-direction: packages/transports/src/index.ts -> packages/transports/node_modules/@cloudg/privacy/src/index.ts',
      ].sort(),
    );
    // Every violation says what to do about it.
    for (const v of violations) expect(v.comment, v.rule).not.toBe('');
  }, 180_000);

  it('passes on this repository', async () => {
    const violations: Violation[] = await checkDeps();
    expect(violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 180_000);
});
