import { describe, expect, it } from 'vitest';
import { Dataset } from '../dataset/dataset.js';
import { FindingSchema } from '../model/finding.js';
import { textMatches } from './columns.js';

const dataset = new Dataset({
  name: 'texts',
  kind: 'report',
  source: 'test',
  findings: [
    ['S3 bucket without encryption', 'Enable default ENCRYPTION.'],
    ['İstanbul office VPN', 'Gateway in İzmir'],
    ['Open SSH', ''],
    ['', 'encryption at rest disabled'],
    ['Old kernel', 'ssh\u0001weird'],
    ['Last one', 'ends with ssh'],
  ].map(([title, description], i) => FindingSchema.parse({ id: `f-${i}`, title, description })),
});

/** The positions a per-finding substring test of the lower-cased texts finds. */
function expected(needle: string): number[] {
  return dataset.findings
    .map((f, i) => (`${f.title}\u0000${f.description}`.toLowerCase().includes(needle) ? i : -1))
    .filter((i) => i >= 0);
}

const hits = (needle: string) =>
  [...textMatches(dataset, needle)].map((hit, i) => (hit ? i : -1)).filter((i) => i >= 0);

describe('textMatches', () => {
  it.each([
    'encryption',
    'ssh',
    'i̇zmir',
    'vpn\u0000gateway',
    'kernel\u0000ssh',
    'ssh\u0001weird',
    'h\u0001',
    'ssh\u0001',
    'n',
    'nothing like it',
  ])('finds in each finding what a substring test of its own text finds: %j', (needle) => {
    expect(hits(needle)).toEqual(expected(needle));
  });
});
