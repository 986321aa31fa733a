import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // It points process.env.HOME elsewhere for a while.
  isolated: ['src/workspace/workspace-config.test.ts'],
});
