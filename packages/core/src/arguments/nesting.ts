/**
 * A bound on how deeply arguments may nest. Every later step (the input pipeline, validation,
 * the audit hash) walks the arguments; a request nested 100,000 levels deep would make each of
 * them work through it or fail on the stack. It is refused once, up front, before anything runs.
 */
import { InvalidArgumentsError } from '../errors.js';

/** Containers inside containers, counted from the arguments object (depth 1). */
export const MAX_ARGUMENT_DEPTH = 64;

/** Throws InvalidArgumentsError when `value` nests containers deeper than `max`. Iterative, linear. */
export function assertNestingWithin(value: unknown, max: number = MAX_ARGUMENT_DEPTH): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) {
      throw new InvalidArgumentsError(`Invalid arguments: nested more than ${max} levels deep`, {
        data: [{ loc: '', msg: `nested more than ${max} levels deep`, type: 'too_deep' }],
      });
    }
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
}
