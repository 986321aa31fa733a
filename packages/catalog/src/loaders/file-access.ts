/**
 * Opening the files a loader reads. Every path, the one the loader was given and each file it
 * finds beside it, is resolved to its real path (symlinks followed) and judged by that before
 * it is opened; the file is then opened by its real path without following a link, and what
 * was actually opened is judged again, so a link swapped in between cannot redirect the read.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath } from 'node:fs/promises';
import { notAFile, pathMissing } from './errors.js';

/**
 * Which files the loaders may open. The workspace's implementation keeps them inside the
 * allowed roots and away from the server's own files (audit log, vault); without one, any file
 * the process can read is allowed (an operator's preload, a library caller's `loadPath`).
 */
export interface FileAccess {
  /**
   * Throw when `real` may not be read. Called with the resolved path before opening, then with
   * the opened file's path and stats. `requested` is the path as it was named, for error data.
   */
  check(real: string, requested: string, opened?: Stats): void;
}

// Windows has neither flag; there, the check of the opened path's real path is what remains.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The real path of `path`, once `access` allows it; a path that does not resolve is missing. */
export async function admitPath(path: string, access: FileAccess | undefined): Promise<string> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw pathMissing(path);
  }
  access?.check(real, path);
  return real;
}

/**
 * Open a regular file for reading, judged before and after opening. `O_NONBLOCK` keeps a FIFO
 * from stalling the open; it is refused as soon as its stats are read.
 */
export async function openAdmitted(
  path: string,
  access: FileAccess | undefined,
): Promise<{ handle: FileHandle; stats: Stats }> {
  const real = await admitPath(path, access);
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch {
    // Gone, or replaced by a link (ELOOP under O_NOFOLLOW) since it was resolved.
    throw pathMissing(path);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notAFile(path);
    access?.check((await openedPath(handle)) ?? real, path, stats);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Where the kernel says an open descriptor points, where it tells (Linux); otherwise undefined. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}
