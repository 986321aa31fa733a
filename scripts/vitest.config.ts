import { defineConfig } from 'vitest/config';

/** The repository's own scripts (`pnpm test:scripts`); each package has its own config. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 60_000,
  },
});
