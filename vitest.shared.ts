import { defineConfig } from 'vitest/config';

/**
 * Shared vitest settings for every package. Workspace packages resolve to their
 * TypeScript sources through the `@cloudg/source` export condition, so tests never
 * need a prior build of their dependencies.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@cloudg/source'] },
  ssr: { resolve: { conditions: ['@cloudg/source'], externalConditions: ['@cloudg/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    passWithNoTests: true,
    // Keep pino quiet unless a test passes its own logger.
    env: { CLOUDG_LOG_LEVEL: 'silent' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
