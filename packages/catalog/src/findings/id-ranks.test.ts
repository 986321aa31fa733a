import { describe, expect, it } from 'vitest';
import { Dataset } from '../dataset/dataset.js';
import { FindingSchema } from '../model/finding.js';
import { idRankSteps, idRanks } from './id-ranks.js';

function dataset(ids: string[]): Dataset {
  return new Dataset({
    name: 'ids',
    kind: 'report',
    source: 'test',
    findings: ids.map((id) => FindingSchema.parse({ id, title: 't' })),
  });
}

/** Ranks as a plain sort gives them: equal ids equal ranks, in `<` order. */
function expected(ids: string[]): number[] {
  const distinct = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids.map((id) => distinct.indexOf(id));
}

const ids = Array.from({ length: 257 }, (_, i) => `f-${(i * 7919) % 101}${i % 3 ? '' : 'Z'}`).concat([
  'É',
  'a',
  'B',
  'f-1',
]);

describe('id ranks', () => {
  it('ranks ids in text order, repeats alike', () => {
    expect([...idRanks(dataset(ids))]).toEqual(expected(ids));
    expect([...idRanks(dataset([]))]).toEqual([]);
  });

  it.each([1, 2, 10, 64, 1000])('gives the same ranks in steps of %i', (chunk) => {
    const d = dataset(ids);
    for (const _ of idRankSteps(d, chunk));
    expect([...idRanks(d)]).toEqual(expected(ids));
  });

  it('keeps nothing when the dataset changed during the steps', () => {
    const d = dataset(ids);
    const steps = idRankSteps(d, 10);
    steps.next();
    d.touch();
    for (const _ of steps);
    expect(d.isCached('findings:id-ranks')).toBe(false);
  });
});
