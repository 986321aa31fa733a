import { packageTestConfig } from '../../vitest.shared.ts';

export const cliTestOptions = {
  // The tests that run what the build made: the `cloudg-mcp` binary in dist/, the README's main
  // command, the packed tarballs. `pnpm test` leaves them out; `pnpm test:dist` runs them after
  // turbo has built the CLI and everything it depends on. The rest call the CLI in-process.
  dist: [
    'test/main-command.test.ts',
    'test/pack-install.test.ts',
    'test/serve-auth-token.test.ts',
    'test/serve-http-options.test.ts',
    'test/shutdown.test.ts',
    'test/stdio-client.test.ts',
    'test/startup-imports.test.ts',
    'test/stdio-isolation.test.ts',
  ],
};

export default packageTestConfig(cliTestOptions);
