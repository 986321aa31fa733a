/** The chunked JSON writer of the shared workspace's files gives what one JSON.stringify gives. */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeJsonYielding } from '../../src/live/json-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-json-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeJsonYielding', () => {
  it('writes the text JSON.stringify gives, large arrays in chunks, undefined keys left out, mode kept', async () => {
    const body = {
      format: 'x/1',
      nothing: undefined,
      empty: [],
      small: [1, 'two', null],
      large: Array.from({ length: 4501 }, (_, i) => ({ id: `f-${i}`, n: i, gone: undefined })),
      organization: null,
      nested: { a: [1, 2] },
    };
    const path = join(dir, 'out.json');
    await writeJsonYielding(path, body, 0o600);
    expect(await readFile(path, 'utf8')).toBe(JSON.stringify(body));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await writeJsonYielding(path, {}, 0o600);
    expect(await readFile(path, 'utf8')).toBe('{}');
  });
});
