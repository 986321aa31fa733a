import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // It adds and removes process signal listeners.
  isolated: ['test/serve-signals.test.ts'],
});
