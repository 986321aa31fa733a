import { packageTestConfig } from '../../vitest.shared.ts';

// Files that need a fresh module graph say so with `@isolated` in their leading comment.
export default packageTestConfig({
  // The HTML report inlines the bundled viewer.
  extra: { test: { globalSetup: ['test/support/build-report.ts'] } },
});
