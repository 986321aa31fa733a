import { inspect } from 'node:util';

const MASK = '**********';

/**
 * A credential from the cloudg config (an access key, a client secret). It prints, serialises
 * and inspects as a mask, so dumping the config into a log, an error or a tool result cannot
 * leak it; only the code that authenticates calls `reveal()`.
 */
export class SecretValue {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
    Object.freeze(this);
  }

  /** The credential itself, for the one place that hands it to a cloud SDK. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return MASK;
  }

  toJSON(): string {
    return MASK;
  }

  [inspect.custom](): string {
    return `SecretValue(${MASK})`;
  }
}
