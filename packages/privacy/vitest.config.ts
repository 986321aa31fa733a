import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The examples import the package by name, as users do; in tests that name means the sources.
export default mergeConfig(sharedConfig, {
  resolve: { alias: { '@cloudg/privacy': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
});
