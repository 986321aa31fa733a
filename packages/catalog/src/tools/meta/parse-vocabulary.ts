import { InvalidArgumentsError } from '@cloudg/core';
import { normaliseEnumValue } from '../../conventions/enums.js';
import { closeMatches } from '../../conventions/similarity.js';

/**
 * Close matches are looked for down to a ratio of 0.5: the reference's examples need it
 * (`LAMBDA` -> `LAMBDA_FUNCTION` scores 0.57). The shared `parseEnum` stops at 0.6.
 */
const CLOSE_CUTOFF = 0.5;
const MESSAGE_VALUES = 30;

/** Parse a vocabulary value case-insensitively (`-` and spaces read as `_`). */
export function parseVocabulary<T extends string>(label: string, value: string, valid: readonly T[]): T {
  const wanted = normaliseEnumValue(value);
  const hit = valid.find((v) => v === wanted);
  if (hit !== undefined) return hit;
  const close = closeMatches(wanted, valid, 3, CLOSE_CUTOFF);
  const hint = close.length ? ` Did you mean ${close.join(', ')}?` : '';
  const more = valid.length > MESSAGE_VALUES ? ', ...' : '';
  throw new InvalidArgumentsError(
    `Unknown ${label}.${hint} Valid values: ${valid.slice(0, MESSAGE_VALUES).join(', ')}${more}`,
    { data: { value, valid: [...valid], close_matches: close } },
  );
}
