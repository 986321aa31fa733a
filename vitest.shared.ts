import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configDefaults, defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';

/** Where a package's tests live. */
export const TEST_FILES = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Shared vitest settings for every package. Workspace packages resolve to their
 * TypeScript sources through the `@cloudg/source` export condition, so tests never
 * need a prior build of their dependencies. No `include` here: the projects below name
 * their files, and vitest would add an `include` set here to theirs.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@cloudg/source'] },
  ssr: { resolve: { conditions: ['@cloudg/source'], externalConditions: ['@cloudg/source'] } },
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    passWithNoTests: true,
    // Keep pino quiet unless a test passes its own logger.
    env: { CLOUDG_LOG_LEVEL: 'silent' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

/** The tags a test file's leading comment may carry, each followed by the reason. */
export type TestTag = 'isolated' | 'dist';

const TAG_LINE = /^\s*(?:\/\*\*?|\*|\/\/)\s*@(isolated|dist)\b(.*)$/;
const COMMENT_LINE = /^\s*(?:$|\/\*|\*|\/\/)/;

/**
 * The tags in a test file's leading comment (the comment lines before its first line of code):
 * `@isolated <why>` for a file that changes process-wide state another file could see (a
 * registered detector, `process.env`, a replaced global, process listeners), so it runs in a
 * fresh module graph; `@dist <why>` for a file that runs the package's built output (`dist/`,
 * the `cloudg-mcp` binary, a packed tarball), so it runs in `test:dist`, after the build.
 */
export function testTags(source: string): Map<TestTag, string> {
  const tags = new Map<TestTag, string>();
  for (const line of source.split('\n')) {
    if (!COMMENT_LINE.test(line)) break;
    const tag = TAG_LINE.exec(line);
    if (tag) tags.set(tag[1] as TestTag, tag[2]!.replace(/\*\/\s*$/, '').trim());
  }
  return tags;
}

/** `*.test.ts` files under `dir`, recursively, skipping node_modules and dist. */
function testFilesUnder(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The package's test files (under `src/` and `test/` of `root`, vitest's root, which is the
 * package directory) that carry `tag`, as paths relative to `root`. The lists are derived from the
 * files, so a new test that needs isolation or a build says so where it is written.
 */
export function taggedTestFiles(tag: TestTag, root: string = process.cwd()): string[] {
  return ['src', 'test']
    .flatMap((dir) => testFilesUnder(join(root, dir)))
    .filter((file) => testTags(readFileSync(file, 'utf8')).has(tag))
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
}

export interface PackageTestOptions {
  /**
   * Test files that change process-wide state another file could see, beyond those tagged
   * `@isolated` (see `testTags`); each gets a fresh module graph. Prefer the tag.
   */
  isolated?: string[];
  /**
   * Test files that run the package's built `dist/`, beyond those tagged `@dist`. They are left
   * out of `test` and run by `test:dist` (see `distTestConfig`), which turbo starts after the
   * build; every other test reads sources and starts at once. Prefer the tag.
   */
  dist?: string[];
  /** Further settings for every project of the package (aliases, global setup). */
  extra?: ViteUserConfig;
}

/** The files tagged `tag` and those the options list, once each. */
function filesFor(tag: TestTag, listed: readonly string[] | undefined): string[] {
  return [...new Set([...taggedTestFiles(tag), ...(listed ?? [])])];
}

/**
 * A package's `vitest.config.ts`. The `shared` project runs its test files in one module graph
 * per worker, so the workspace sources are imported once per run instead of once per file; the
 * `isolated` project runs the files tagged `@isolated` in a fresh graph each, as vitest does by
 * default. Files tagged `@dist` are left to `distTestConfig`.
 */
export function packageTestConfig(options: PackageTestOptions = {}): ViteUserConfig {
  const isolated = filesFor('isolated', options.isolated);
  const dist = filesFor('dist', options.dist);
  return mergeConfig(mergeConfig(sharedConfig, options.extra ?? {}), {
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'shared',
            include: TEST_FILES,
            exclude: [...configDefaults.exclude, ...isolated, ...dist],
            isolate: false,
          },
        },
        ...(isolated.length > 0 ? [{ extends: true, test: { name: 'isolated', include: isolated } }] : []),
      ],
    },
  });
}

/** A package's `vitest.dist.config.ts`: only the tests of built output, with their own report. */
export function distTestConfig(options: PackageTestOptions = {}): ViteUserConfig {
  return mergeConfig(mergeConfig(sharedConfig, options.extra ?? {}), {
    test: {
      include: filesFor('dist', options.dist),
      outputFile: { json: '.vitest-results.dist.json' },
      // These files mostly wait on the processes they start, and turbo runs them last, after the
      // builds: a few at a time instead of one (vitest's default on two cores).
      maxWorkers: 3,
    },
  });
}
