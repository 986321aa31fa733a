import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // The stdio and HTTP child servers, bundled once per run (see the file).
  extra: { test: { globalSetup: ['test/support/build-children.ts'] } },
});
