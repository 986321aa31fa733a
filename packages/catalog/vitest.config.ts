import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // It points process.env.HOME elsewhere for a while.
  isolated: ['src/workspace/workspace-config.test.ts'],
  // The HTML report inlines the bundled viewer.
  extra: { test: { globalSetup: ['test/support/build-report.ts'] } },
});
