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

export interface PackageTestOptions {
  /**
   * Test files that change process-wide state another file could see (a registered detector,
   * `process.env`, fake timers, process listeners) and so each get a fresh module graph.
   */
  isolated?: string[];
  /**
   * Test files that run the package's built `dist/` (the CLI binary, a packed tarball). They are
   * left out of `test` and run by `test:dist` (see `distTestConfig`), which turbo starts after
   * the build; every other test reads sources and starts at once.
   */
  dist?: string[];
  /** Further settings for every project of the package (aliases, global setup). */
  extra?: ViteUserConfig;
}

/**
 * A package's `vitest.config.ts`. The `shared` project runs its test files in one module graph
 * per worker, so the workspace sources are imported once per run instead of once per file; the
 * `isolated` project runs the files listed in `isolated` in a fresh graph each, as vitest does
 * by default.
 */
export function packageTestConfig(options: PackageTestOptions = {}): ViteUserConfig {
  const isolated = options.isolated ?? [];
  const dist = options.dist ?? [];
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
      include: options.dist ?? [],
      outputFile: { json: '.vitest-results.dist.json' },
      // These files mostly wait on the processes they start, and turbo runs them last, after the
      // builds: a few at a time instead of one (vitest's default on two cores).
      maxWorkers: 3,
    },
  });
}
