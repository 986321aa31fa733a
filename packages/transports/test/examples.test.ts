/** The README's examples run as written. */
import { expect, it } from 'vitest';
import { quickstart } from '../examples/quickstart.examples.js';

it('quick start: serves a layer over HTTP and answers a 2026-07-28 tools/call', async () => {
  expect(await quickstart()).toEqual({ version: 'complete', echoed: { text: 'hello' } });
});
