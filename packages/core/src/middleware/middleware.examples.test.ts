import { createHmac } from 'node:crypto';
import { expect, it } from 'vitest';
import { middlewareStack } from './middleware.examples.js';

it('the README middleware example prints what the README says', async () => {
  const refHash = createHmac('sha256', 'example-salt').update('"web-1"').digest('hex').slice(0, 16);
  expect(await middlewareStack()).toEqual([
    'second call -> cache hit',
    'cache -> {"size":1,"hits":1,"misses":1,"ttl":60}',
    'metrics -> calls 2, tool:get_asset 2',
    `audit -> 3 lines, outcome ok, ref hashed as ${refHash}`,
  ]);
  expect(refHash).toBe('c56042a28cce676b');
});
