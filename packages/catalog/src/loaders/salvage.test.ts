import { describe, expect, it } from 'vitest';
import { parseJsonLinesLenient, salvageJsonArray } from './salvage.js';

describe('salvageJsonArray', () => {
  it('keeps the complete records before the cut, whatever brackets their strings hold', () => {
    const text = '[{"a": "x]}", "b": [1, {"c": "\\"]"}]}, {"d": 2}, {"e": "cut here';
    expect(salvageJsonArray(text)).toEqual({
      records: [{ a: 'x]}', b: [1, { c: '"]' }] }, { d: 2 }],
      problem:
        'The file ends in the middle of record 3 (truncated); the 2 complete record(s) before it were read.',
    });
  });

  it('reads a whole array followed by junk', () => {
    expect(salvageJsonArray('[{"a":1},{"b":2}]\n<!-- log -->')?.records).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('stops at a damaged record', () => {
    const salvaged = salvageJsonArray('[{"a":1}, {"b": nope}, {"c":3}]');
    expect(salvaged?.records).toEqual([{ a: 1 }]);
    expect(salvaged?.problem).toContain('damaged after record 1');
  });

  it('gives up when nothing is complete or the text is not an array', () => {
    for (const text of ['[{"a":', '{"a": [1, 2', '', 'hello', '[]x'])
      expect(salvageJsonArray(text)).toBeUndefined();
  });
});

describe('parseJsonLinesLenient', () => {
  it('skips bad lines and numbers them', () => {
    expect(parseJsonLinesLenient('{"a":1}\n\n{"b":\n[1]\n{"c":3}\n')).toEqual({
      records: [{ a: 1 }, { c: 3 }],
      badLines: [3, 4],
    });
  });

  it('is not JSON Lines unless the first line is an object', () => {
    expect(parseJsonLinesLenient('[\n{"a":1}\n]')).toBeUndefined();
    expect(parseJsonLinesLenient('{\n"a": 1\n}')).toBeUndefined();
    expect(parseJsonLinesLenient('\n\n')).toBeUndefined();
  });
});
