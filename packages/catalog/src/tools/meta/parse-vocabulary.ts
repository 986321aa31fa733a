import { normaliseEnumValue, unknownEnumValue } from '../../conventions/enums.js';

/**
 * Close matches are looked for down to a ratio of 0.5: the reference's examples need it
 * (`LAMBDA` -> `LAMBDA_FUNCTION` scores 0.57). The shared `parseEnum` stops at 0.6.
 */
const CLOSE_CUTOFF = 0.5;

/** Parse a vocabulary value case-insensitively (`-` and spaces read as `_`). */
export function parseVocabulary<T extends string>(label: string, value: string, valid: readonly T[]): T {
  const wanted = normaliseEnumValue(value);
  const hit = valid.find((v) => v === wanted);
  if (hit !== undefined) return hit;
  throw unknownEnumValue(label, value, valid, CLOSE_CUTOFF);
}
