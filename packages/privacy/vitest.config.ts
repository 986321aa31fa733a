import { fileURLToPath } from 'node:url';
import { packageTestConfig } from '../../vitest.shared.ts';

// Files that need a fresh module graph or the build say so with `@isolated` or `@dist` in their
// leading comment; `pnpm test:dist` runs the second kind after the build.
export const privacyTestOptions = {
  // The examples import the package by name, as users do; in tests that name means the sources.
  extra: {
    resolve: { alias: { '@cloudg/privacy': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  },
};

export default packageTestConfig(privacyTestOptions);
