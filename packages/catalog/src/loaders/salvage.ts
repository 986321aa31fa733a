import { isPlainObject } from '@cloudg/core';
import { tryParseJson } from './read-file.js';

/**
 * Reading what can be read from a damaged report. Scanners are often killed mid-write (a CI
 * timeout, a full disk), and a report cut off at record 900 of 1,000 still holds 899 good
 * records; refusing the whole file would lose them. These functions recover the complete
 * records and say how much was left out, so the caller can report it.
 */

export interface Salvaged {
  records: unknown[];
  /** What was skipped, in words for the `errors` list. */
  problem: string;
}

/**
 * JSON Lines (Prowler 2, `--output-format ndjson` of several tools): one value per non-empty
 * line. Undefined unless the first line is a JSON object, so pretty-printed JSON (whose first
 * line is `[` or `{` alone) is never mistaken for it. Lines that do not parse, or that hold
 * something other than an object, are skipped and counted.
 */
export function parseJsonLinesLenient(
  text: string,
): { records: Record<string, unknown>[]; badLines: number[] } | undefined {
  const lines = text.split(/\r?\n/);
  const records: Record<string, unknown>[] = [];
  const badLines: number[] = [];
  let seenFirst = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const parsed = tryParseJson(line);
    const ok = parsed.ok && isPlainObject(parsed.value);
    if (!seenFirst) {
      if (!ok) return undefined;
      seenFirst = true;
    }
    if (ok) records.push(parsed.value as Record<string, unknown>);
    else badLines.push(i + 1);
  }
  return seenFirst ? { records, badLines } : undefined;
}

/**
 * The complete elements of a JSON array whose text was cut off (or damaged after some point).
 * Undefined when the text does not start an array or not even one element is complete.
 */
export function salvageJsonArray(text: string): Salvaged | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '[') return undefined;
  const records: unknown[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let elementStart = -1;
  let damaged = false;
  const finish = (end: number): boolean => {
    if (elementStart < 0) return true;
    const parsed = tryParseJson(text.slice(elementStart, end));
    elementStart = -1;
    if (!parsed.ok) return false;
    records.push(parsed.value);
    return true;
  };
  for (let i = start + 1; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (depth === 0) {
      if (ch === ',' || ch === ']') {
        if (!finish(i)) {
          damaged = true;
          break;
        }
        if (ch === ']') {
          // The array is whole; what made the file invalid comes after it.
          return records.length
            ? {
                records,
                problem: `The file has unexpected content after its closing bracket, which was ignored; all ${records.length} record(s) were read.`,
              }
            : undefined;
        }
        continue;
      }
      if (elementStart < 0 && !/\s/.test(ch ?? '')) elementStart = i;
    }
    if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth < 0) {
        damaged = true;
        break;
      }
    }
  }
  if (records.length === 0) return undefined;
  return {
    records,
    problem: damaged
      ? `The file is damaged after record ${records.length}; the ${records.length} complete record(s) before it were read.`
      : `The file ends in the middle of record ${records.length + 1} (truncated); the ${records.length} complete record(s) before it were read.`,
  };
}

/**
 * A JSON object cut off part-way (Trivy's `{"Results": [...]}`, a Checkov report, Prowler's
 * `{"Findings": [...]}`, a ScoutSuite results object): the text up to the last complete record,
 * with the containers still open at that point closed. A record is an element of an array, or,
 * where no array encloses it, an object-valued member (ScoutSuite's rules). So every complete
 * record survives, and a record cut in the middle is dropped whole rather than kept half-read.
 * Undefined when the text does not start an object or no record was completed.
 */
export function salvageTruncatedObject(
  text: string,
): { document: Record<string, unknown>; problem: string } | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return undefined;
  const stack: string[] = [];
  let arrays = 0;
  let inString = false;
  let escaped = false;
  let safeEnd = -1;
  let safeStack = '';
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      stack.push(ch);
      if (ch === '[') arrays += 1;
    } else if (ch === '}' || ch === ']') {
      if (stack.pop() === '[') arrays -= 1;
      if (stack.length === 0) {
        // Whole after all: what made the text invalid comes after the object.
        const whole = tryParseJson(text.slice(start, i + 1));
        if (!whole.ok || !isPlainObject(whole.value)) return undefined;
        return {
          document: whole.value,
          problem: 'The file has unexpected content after its closing brace, which was ignored.',
        };
      }
      // An array element just closed, or an object member where no array encloses it. An
      // array member of an object (a rule's `items`) is not a record: its object may go on.
      if (stack[stack.length - 1] === '[' || (ch === '}' && arrays === 0)) {
        safeEnd = i + 1;
        safeStack = stack.join('');
      }
    }
  }
  if (safeEnd < 0) return undefined;
  const closers = [...safeStack]
    .reverse()
    .map((c) => (c === '{' ? '}' : ']'))
    .join('');
  const parsed = tryParseJson(text.slice(start, safeEnd) + closers);
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
  return {
    document: parsed.value,
    problem:
      'The file ends part-way (truncated); every record complete before the cut was read, the one being written when it stopped was not.',
  };
}
