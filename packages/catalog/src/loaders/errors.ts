import { InvalidArgumentsError } from '@cloudg/core';
import { LOADER_KINDS } from '../model/vocabulary.js';

/**
 * Load failures. Messages describe the problem without quoting the file's contents or the
 * caller's path; the path travels in `data` where the privacy pipeline can see it.
 */

export function fileTooLarge(path: string, size: number, maxBytes: number): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `The file is larger than the loader's limit of ${formatBytes(maxBytes)}. Split it, or ask the operator to raise the limit.`,
    { data: { path, size, max_bytes: maxBytes } },
  );
}

export function malformedJson(path: string, format = 'JSON'): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `The file is not valid ${format}. Check that it is complete and was written by a supported tool.`,
    { data: { path, format: format.toLowerCase() } },
  );
}

export function unrecognisedContent(path: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `Could not tell what the file holds. Pass kind explicitly, one of: ${LOADER_KINDS.join(', ')}.`,
    { data: { path, valid: [...LOADER_KINDS] } },
  );
}

/** The caller named a scanner, and the file is some other tool's output (or none). */
export function notScannerOutput(path: string, kind: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `The file does not look like ${kind} output, so it would give no findings. Check which tool wrote it, or load it with kind auto.`,
    { data: { path, kind } },
  );
}

export function invalidStructure(
  path: string,
  kind: string,
  issues: { path: PropertyKey[]; message: string }[],
): InvalidArgumentsError {
  return new InvalidArgumentsError(
    `The file does not match the ${kind} format (${issues.length} problem(s), see issues in the error data).`,
    {
      data: {
        path,
        kind,
        issues: issues.slice(0, 10).map((i) => ({ loc: i.path.map(String).join('.'), msg: i.message })),
      },
    },
  );
}

export function pathMissing(path: string): InvalidArgumentsError {
  return new InvalidArgumentsError(
    'Path does not exist. Check the path, or call workspace_status to see the allowed roots.',
    {
      data: { path },
    },
  );
}

export function notAFile(path: string): InvalidArgumentsError {
  return new InvalidArgumentsError('The path is not a regular file or a directory, so it cannot be loaded.', {
    data: { path },
  });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}
