/**
 * The `@isolated` and `@dist` tags (vitest.shared.ts) from which each package's lists of isolated
 * and built-output tests are derived: read from the leading comment only, each with its reason,
 * and present where a test would otherwise run in the wrong task or not at all.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { taggedTestFiles, testTags } from '../vitest.shared.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(ROOT, group))
    .map((name) => join(ROOT, group, name))
    .filter((dir) => existsSync(join(dir, 'package.json'))),
);

/** Every test file of a package (under src/ and test/), with its source, relative to the package. */
function testFiles(dir: string): Array<{ file: string; source: string }> {
  const walk = (sub: string): string[] =>
    existsSync(join(dir, sub))
      ? readdirSync(join(dir, sub), { withFileTypes: true }).flatMap((entry) => {
          if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(`${sub}/${entry.name}`);
          return entry.name.endsWith('.test.ts') ? [`${sub}/${entry.name}`] : [];
        })
      : [];
  return [...walk('src'), ...walk('test')].map((file) => ({
    file,
    source: readFileSync(join(dir, file), 'utf8'),
  }));
}

describe('testTags', () => {
  it('reads @isolated and @dist with their reasons from the leading comment', () => {
    const tags = testTags(
      '/**\n * What it tests.\n *\n * @isolated it sets process.env.\n */\nimport x from "y";\n',
    );
    expect([...tags]).toEqual([['isolated', 'it sets process.env.']]);
    expect([...testTags('/** @dist it runs the built binary. */\n')]).toEqual([
      ['dist', 'it runs the built binary.'],
    ]);
    expect([...testTags('// @dist it packs dist/.\nimport x from "y";\n')]).toEqual([
      ['dist', 'it packs dist/.'],
    ]);
  });

  it('ignores a tag after the first line of code', () => {
    expect(testTags('import x from "y";\n/** @isolated not here */\n').size).toBe(0);
  });
});

describe('the tags in this repository', () => {
  it('give a reason for every tag', () => {
    for (const dir of PACKAGES)
      for (const { file, source } of testFiles(dir))
        for (const [tag, why] of testTags(source)) expect(why, `${dir}/${file} @${tag}`).not.toBe('');
  });

  it('run every @dist test somewhere: its package has a test:dist script and a vitest.dist.config.ts', () => {
    for (const dir of PACKAGES) {
      if (taggedTestFiles('dist', dir).length === 0) continue;
      const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: object })
        .scripts;
      expect(scripts, `${dir}: @dist tests need a test:dist script`).toHaveProperty('test:dist');
      expect(existsSync(join(dir, 'vitest.dist.config.ts')), `${dir}/vitest.dist.config.ts`).toBe(true);
    }
  });

  it('tag @dist every test that runs its own package from dist/', () => {
    for (const dir of PACKAGES)
      for (const { file, source } of testFiles(dir)) {
        // A path into the package's own build, relative to the test file (the CLI tests' BIN).
        if (/new URL\(\s*['"`](?:\.\.\/)+dist\//.test(source))
          expect(testTags(source).has('dist'), `${dir}/${file} runs dist/ but has no @dist tag`).toBe(true);
      }
  });
});
