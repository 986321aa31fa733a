import { existsSync, realpathSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, parse, relative, resolve } from 'node:path';
import { AccessDeniedError } from '@cloudg/core';
import { pathMissing } from '../loaders/errors.js';
import type { FileAccess } from '../loaders/file-access.js';
import { WorkspaceConfigError } from './errors.js';

/** Environment variable holding extra allowed roots, separated by the platform's path delimiter. */
export const ALLOWED_ROOTS_ENV = 'CLOUDG_MCP_ALLOWED_ROOTS';

/**
 * A path with symlinks resolved as far as it exists: the deepest existing ancestor goes through
 * `realpath`, the rest is appended. So a link pointing outside a root is judged by its target,
 * and a file that does not exist yet is judged by where it would be created.
 */
export function realPathLenient(path: string): string {
  const absolute = resolve(path);
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      rest.push(basename(current));
      current = parent;
    }
  }
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Whether a directory is too broad to be a default root: a filesystem root (`/`, `C:\\`), the home
 * directory, or any directory that contains it (`/home`, `/Users`). Defaults must never open every
 * file the user owns; an operator who wants that names the directory explicitly.
 */
export function opensEverything(dir: string): boolean {
  const real = realPathLenient(dir);
  return parse(real).root === real || isInside(realPathLenient(homedir()), real);
}

export interface RootOptions {
  allowedRoots?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The resolved output directory, a default root alongside the working directory. */
  outputDir?: string;
}

/**
 * The directories tools may read: the option, else `CLOUDG_MCP_ALLOWED_ROOTS`, else the working
 * directory and the output directory, leaving out `/` and the home directory because those
 * would open everything (a client launched from the home directory still gets `~/reports`).
 */
export function resolveAllowedRoots(options: RootOptions): string[] {
  const cwd = options.cwd ?? process.cwd();
  let roots: string[];
  if (options.allowedRoots?.length) roots = [...options.allowedRoots];
  else {
    const fromEnv = (options.env ?? process.env)[ALLOWED_ROOTS_ENV];
    if (fromEnv?.trim()) roots = fromEnv.split(delimiter).filter((r) => r.trim() !== '');
    else {
      roots = [cwd, ...(options.outputDir ? [options.outputDir] : [])].filter((r) => !opensEverything(r));
      if (roots.length === 0) {
        throw new WorkspaceConfigError(
          `No usable allowed root: the working and output directories are a filesystem root, the home directory or one of its ancestors. Set ${ALLOWED_ROOTS_ENV} or pass allowedRoots.`,
        );
      }
    }
  }
  const out: string[] = [];
  for (const r of roots) {
    const real = realPathLenient(resolve(cwd, r));
    // A root inside another adds nothing (the output directory under the working directory).
    if (!out.some((kept) => isInside(real, kept))) out.push(real);
  }
  return out;
}

/** AccessDeniedError (-31001) for a path outside the roots. The roots are the operator's, so they are named. */
export function outsideRoots(path: string, roots: readonly string[]): AccessDeniedError {
  return new AccessDeniedError(
    `The path is outside the allowed roots (${roots.join(', ')}). Ask the operator to add its directory to the workspace's allowed roots.`,
    { data: { path, allowed_roots: [...roots] } },
  );
}

/**
 * Resolve a caller's path: relative to the first root, symlinks followed, and inside one of the
 * roots; with `mustExist`, it must exist. Returns the real path.
 */
export function checkPathInRoots(path: string, roots: readonly string[], mustExist = true): string {
  const base = roots[0] ?? process.cwd();
  const real = realPathLenient(isAbsolute(path) ? path : resolve(base, path));
  if (!roots.some((root) => isInside(real, root))) throw outsideRoots(path, roots);
  if (mustExist && !existsSync(real)) throw pathMissing(path);
  return real;
}

/**
 * Files no tool may read however they are reached: the server's own audit log and pseudonym
 * vault, which may well sit inside an allowed root. They are matched by real path, resolved
 * when a file is judged (a vault file may only appear at the first save), and by device and
 * inode once a file is open, so neither a symlink nor a hard link to them gets through.
 */
export class ProtectedFiles {
  readonly #paths: string[] = [];

  /** Protect a file, by absolute path. */
  add(path: string): void {
    if (!this.#paths.includes(path)) this.#paths.push(path);
  }

  get size(): number {
    return this.#paths.length;
  }

  /** Whether a resolved path, or the file opened with these stats, is a protected file. */
  matches(real: string, opened?: Stats): boolean {
    for (const path of this.#paths) {
      if (realPathLenient(path) === real) return true;
      if (opened && sameFile(path, opened)) return true;
    }
    return false;
  }
}

function sameFile(path: string, opened: Stats): boolean {
  try {
    const info = statSync(path);
    return info.dev === opened.dev && info.ino === opened.ino;
  } catch {
    return false;
  }
}

/** AccessDeniedError (-31001) for one of the server's own files. The path goes in `data` only. */
export function protectedFile(path: string): AccessDeniedError {
  return new AccessDeniedError(
    'The file belongs to the server itself (its audit log or pseudonym vault) and cannot be read by tools. Load a dataset from another file.',
    { data: { path } },
  );
}

/**
 * What the loaders may open: with `roots`, only files whose real path lies inside one of them;
 * never a protected file. Without `roots` (the operator's own preload) only the latter applies.
 */
export function loaderAccess(
  roots: readonly string[] | undefined,
  protectedFiles: ProtectedFiles,
): FileAccess {
  return {
    check(real, requested, opened) {
      if (roots && !roots.some((root) => isInside(real, root))) throw outsideRoots(requested, roots);
      if (protectedFiles.size > 0 && protectedFiles.matches(real, opened)) throw protectedFile(requested);
    },
  };
}

/** A write target under the output directory; `..` or a symlink escaping it is refused. */
export function outputPathUnder(outputDir: string, subpath: string): string {
  const root = realPathLenient(outputDir);
  if (isAbsolute(subpath)) throw escapesOutput(subpath, root);
  const real = realPathLenient(resolve(root, subpath));
  if (!isInside(real, root)) throw escapesOutput(subpath, root);
  return real;
}

function escapesOutput(subpath: string, root: string): AccessDeniedError {
  return new AccessDeniedError(
    `The output path must stay inside the output directory (${root}). Use a relative sub-directory without '..'.`,
    { data: { path: subpath, output_dir: root } },
  );
}
