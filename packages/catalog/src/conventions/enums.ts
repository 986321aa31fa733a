import { closeMatches, InvalidArgumentsError } from '@cloudg/core';
import { SEVERITIES, type Severity } from '../model/severity.js';
import { normaliseEnumValue } from '../model/vocabulary.js';

export { normaliseEnumValue };

/** How many valid values an error message lists before it stops. */
const MESSAGE_VALUES = 30;

/**
 * An unknown enumerated value. The message names up to three close valid values (similarity at
 * least `cutoff`) and the valid list (first 30); it never repeats the caller's value, which goes
 * in `data.value`.
 */
export function unknownEnumValue(
  label: string,
  value: string,
  valid: readonly string[],
  cutoff = 0.6,
): InvalidArgumentsError {
  const close = closeMatches(normaliseEnumValue(value), valid, 3, cutoff);
  const hint = close.length ? ` Did you mean ${close.join(', ')}?` : '';
  const shown = valid.slice(0, MESSAGE_VALUES).join(', ');
  const more = valid.length > MESSAGE_VALUES ? ', ...' : '';
  return new InvalidArgumentsError(`Unknown ${label}.${hint} Valid values: ${shown}${more}`, {
    data: { value, valid: [...valid], close_matches: close },
  });
}

/** Parse an enumerated argument against its valid values; returns the canonical spelling. */
export function parseEnum<T extends string>(label: string, value: string, valid: readonly T[]): T {
  const wanted = normaliseEnumValue(value);
  const hit = valid.find((v) => normaliseEnumValue(v) === wanted);
  if (hit === undefined) throw unknownEnumValue(label, value, valid);
  return hit;
}

/** Parse a list of enumerated values (each checked; the first unknown one fails). */
export function parseEnumList<T extends string>(
  label: string,
  values: readonly string[],
  valid: readonly T[],
): T[] {
  return [...new Set(values.map((v) => parseEnum(label, v, valid)))];
}

/** `CRITICAL`, `high`, `Info`... -> a Severity; unknown values fail with the valid list. */
export function parseSeverity(value: string): Severity {
  return parseEnum('severity', value, SEVERITIES);
}
