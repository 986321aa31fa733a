import { expect, it } from 'vitest';
import { quickstart } from '../examples/quickstart.examples.js';

it('the README quick start prints what the README says', async () => {
  expect(await quickstart()).toEqual([
    'count_words -> {"words":2}',
    'invalid -> -32602 Invalid arguments: colour: Extra inputs are not permitted. Valid arguments: text, min_length',
    'about -> application/json',
    'prompt -> 1 message(s)',
    'tools -> count_words',
  ]);
});
