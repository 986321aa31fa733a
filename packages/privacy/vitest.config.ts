import { fileURLToPath } from 'node:url';
import { packageTestConfig } from '../../vitest.shared.ts';

export const privacyTestOptions = {
  // It registers detectors in the process-wide registry.
  isolated: ['test/pipeline.test.ts'],
  // It packs dist/ and installs the tarball: `pnpm test:dist`, after the build.
  dist: ['test/pack.test.ts'],
  // The examples import the package by name, as users do; in tests that name means the sources.
  extra: {
    resolve: { alias: { '@cloudg/privacy': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  },
};

export default packageTestConfig(privacyTestOptions);
