import { resolve } from 'node:path';
import { McpLayerError } from '@cloudg/core';

export interface DatasetSpec {
  /** Undefined: the loader picks one from the path (parent directory of an inventory map, else the file stem). */
  name: string | undefined;
  path: string;
}

/**
 * Thrown for a `--dataset` value that cannot be used: malformed, or a path that does not load.
 * Code `invalid_dataset_spec`; `data` holds `value` and `reason` when there are any.
 */
export class DatasetSpecError extends McpLayerError {
  override readonly code = 'invalid_dataset_spec';
  declare readonly data: { value?: string; reason?: string };
  /** The `[NAME=]PATH` value as given, when the error is about one value. */
  readonly value: string | undefined;
  /** What is wrong with it, without the value (the message says which dataset). */
  readonly reason: string | undefined;

  constructor(message: string, details: { value?: string; reason?: string; cause?: unknown } = {}) {
    const data: { value?: string; reason?: string } = {};
    if (details.value !== undefined) data.value = details.value;
    if (details.reason !== undefined) data.reason = details.reason;
    super(message, { data, cause: details.cause });
    this.value = details.value;
    this.reason = details.reason;
  }
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Parse `[NAME=]PATH`. Only a prefix that is a valid dataset name counts as a name, so paths
 * that contain `=` still work. The path is made absolute against `cwd`.
 */
export function parseDatasetSpec(value: string, cwd: string = process.cwd()): DatasetSpec {
  const trimmed = value.trim();
  if (!trimmed) throw new DatasetSpecError('A dataset needs a path: use [NAME=]PATH');
  const eq = trimmed.indexOf('=');
  if (eq > 0 && NAME.test(trimmed.slice(0, eq))) {
    const path = trimmed.slice(eq + 1);
    if (!path) throw new DatasetSpecError('A dataset needs a path after NAME=');
    return { name: trimmed.slice(0, eq), path: resolve(cwd, path) };
  }
  return { name: undefined, path: resolve(cwd, trimmed) };
}
