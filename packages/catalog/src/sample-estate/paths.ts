import { fileURLToPath } from 'node:url';

/**
 * Where the bundled sample estate lives. Both paths are relative to this module, which sits two
 * levels below the package root in `src/` (tests) and in `dist/` (the published build).
 */
export function sampleEstateDir(): string {
  return fileURLToPath(new URL('../../fixtures/sample-estate', import.meta.url));
}

/** The facts file the sample estate is generated from. */
export function sampleEstateFactsPath(): string {
  return fileURLToPath(new URL('../../fixtures/sample-estate-facts.json', import.meta.url));
}
