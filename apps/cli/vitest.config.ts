import { packageTestConfig } from '../../vitest.shared.ts';

// The tests that run what the build made (the `cloudg-mcp` binary in dist/, the README's main
// command, the packed tarballs) carry `@dist` in their leading comment: `pnpm test` leaves them
// out and `pnpm test:dist` runs them after turbo has built the CLI and everything it depends on.
// The rest call the CLI in-process.
export const cliTestOptions = {};

export default packageTestConfig(cliTestOptions);
