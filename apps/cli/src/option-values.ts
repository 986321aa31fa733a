/** Parsers for option values that name their own option in the error (exit status 2). */
import { CliError } from './cli-error.js';

/** For repeatable options: each occurrence adds its value. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A parser for a number of seconds (0 or more) that names its own option in the error. */
export function parseSecondsFor(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0)
      throw new CliError(`Invalid value for ${flag}: '${value}' is not a number of seconds`, 2);
    return n;
  };
}

export const parseSeconds = parseSecondsFor('--timeout');

/** A parser for a whole number in `[min, max]` that names its own option in the error. */
export function parseCount(flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < 0)
      throw new CliError(`Invalid value for ${flag}: '${value}' is not a whole number`, 2);
    if (n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
      throw new CliError(`Invalid value for ${flag}: '${value}' is not ${range}`, 2);
    }
    return n;
  };
}
