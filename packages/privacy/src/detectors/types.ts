/**
 * The detector model: a detector reports spans of one entity type with a confidence; what
 * happens to them is the redactor's business.
 */

/**
 * Returns the (possibly refined) entity for an accepted span, or null to reject it. `text` is
 * the string the span was found in and `start` where the span starts in it, for validators
 * that look at what precedes the value.
 */
export type Validator = (value: string, text?: string, start?: number) => string | null;

export interface Detector {
  readonly name: string;
  /** The base entity (`ip_address`); validators may refine it (`private_ip`). */
  readonly entity: string;
  readonly category: string;
  readonly confidence: number;
  /** What it finds, in one line, for listings. */
  readonly description?: string;
  /** Lower-case substrings; the regex runs only on strings containing one of them. Empty: always. */
  readonly hints: readonly string[];
  /** Global (`g`) regex. */
  readonly pattern: RegExp;
  /** Capture group(s) holding the reported span; the first that participated wins. 0 = whole match. */
  readonly group: number | readonly number[];
  /** Every entity this detector can report (the base entity plus refinements). */
  readonly entities: readonly string[];
  readonly validate?: Validator;
  /** Strings shorter than this are skipped without running the regex. */
  readonly minLength: number;
  /** False for a built-in that a configuration switched off. */
  readonly enabled: boolean;
  readonly builtin: boolean;
}

/** One reported span in a string. */
export interface Span {
  start: number;
  end: number;
  entity: string;
  detector: Detector;
}
