import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // It registers a detector in @cloudg/privacy's process-wide registry.
  isolated: ['test/introspection-detectors.test.ts'],
});
