import { InvalidArgumentsError } from '@cloudg/core';

/** Dataset names: 1 to 64 letters, digits, `_`, `.` or `-`. */
export const DATASET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export function assertDatasetName(name: string): void {
  if (!DATASET_NAME_PATTERN.test(name)) {
    throw new InvalidArgumentsError(
      "Invalid dataset name: use 1 to 64 characters from letters, digits, '_', '.' and '-'.",
      { data: { value: name, pattern: DATASET_NAME_PATTERN.source } },
    );
  }
}

/** `base`, or `base-2`, `base-3`... whichever is free (kept within 64 characters). */
export function freeName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}
