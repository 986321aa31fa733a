#!/usr/bin/env node
// Regenerate the bundled sample estate (fixtures/sample-estate) from its facts file.
// Usage: pnpm --filter @cloudg/catalog build && node scripts/generate-sample-estate.mjs [--facts F] [--out DIR]
// The test `test/sample-estate.test.ts` fails when the committed copy differs from what this writes.
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
// The generator is internal to the package: it is imported from its module in dist, not the entry point.
import { readSampleEstateFacts, writeSampleEstate } from '../dist/sample-estate/generate.js';
import { sampleEstateDir, sampleEstateFactsPath } from '../dist/sample-estate/paths.js';

const { values } = parseArgs({
  options: { facts: { type: 'string' }, out: { type: 'string' } },
});
const out = values.out ?? sampleEstateDir();
await rm(out, { recursive: true, force: true });
const facts = await readSampleEstateFacts(values.facts ?? sampleEstateFactsPath());
const written = await writeSampleEstate(facts, out);
process.stderr.write(`wrote ${written.length} files to ${out}\n`);
