import { realpathSync, renameSync, type Stats, symlinkSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loaderAccess, ProtectedFiles } from '../workspace/roots.js';
import type { FileAccess } from './file-access.js';
import { readTextFile } from './read-file.js';

let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = realpathSync(await mkdtemp(join(tmpdir(), 'cloudg-access-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'scans'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'scans', 'report.json'), '{"inside": true}');
  await writeFile(join(outside, 'report.json'), '{"outside": true}');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The roots' access, plus a hook that runs after each check (to change the disk in between). */
function accessWith(after: (real: string, opened: Stats | undefined) => void): FileAccess {
  const guard = loaderAccess([root], new ProtectedFiles());
  return {
    check(real, requested, opened) {
      guard.check(real, requested, opened);
      after(real, opened);
    },
  };
}

describe('opening a file for a loader', () => {
  it.runIf(process.platform === 'linux')(
    'judges the file actually opened: a directory swapped for a link after the check is caught',
    async () => {
      const target = join(root, 'scans', 'report.json');
      let swapped = false;
      const access = accessWith((real, opened) => {
        if (opened || swapped || real !== target) return;
        // Between the check of the resolved path and the open, `scans` becomes a link outside.
        swapped = true;
        renameSync(join(root, 'scans'), join(root, 'scans-moved'));
        symlinkSync(outside, join(root, 'scans'));
      });
      await expect(readTextFile(target, { access })).rejects.toMatchObject({
        code: -31001,
        data: { path: target },
      });
      expect(swapped).toBe(true);
    },
  );

  it('does not follow a file swapped for a link after the check', async () => {
    const target = join(root, 'scans', 'report.json');
    const access = accessWith((real, opened) => {
      if (opened || real !== target) return;
      renameSync(target, `${target}.old`);
      symlinkSync(join(outside, 'report.json'), target);
    });
    await expect(readTextFile(target, { access })).rejects.toMatchObject({
      code: -32602,
      data: { path: target },
    });
  });

  it('reads the size from the file it reads, and refuses what is not a regular file', async () => {
    await copyFile(join(root, 'scans', 'report.json'), join(root, 'copy.json'));
    await expect(readTextFile(join(root, 'copy.json'), { access: accessWith(() => {}) })).resolves.toBe(
      '{"inside": true}',
    );
    await expect(
      readTextFile(join(root, 'copy.json'), { access: accessWith(() => {}), maxBytes: 4 }),
    ).rejects.toMatchObject({ code: -32602, data: { size: 16, max_bytes: 4 } });
    await expect(readTextFile(join(root, 'scans'), { access: accessWith(() => {}) })).rejects.toMatchObject({
      code: -32602,
      message: 'The path is not a regular file or a directory, so it cannot be loaded.',
    });
  });
});
