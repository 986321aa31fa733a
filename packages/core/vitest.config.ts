import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig({
  // They set process.env and replace performance.now for a while.
  isolated: ['src/middleware/audit-log.test.ts', 'src/middleware/metrics.test.ts'],
});
