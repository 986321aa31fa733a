/**
 * Hints that follow an error's message. Most clients do not pass `_meta` on, so close matches and
 * candidates are shown to the model as a second text block. It is rendered from data
 * (`structuredText`), so the caller's output pipeline transforms the values by key as it does in a
 * result: under `strict` the names, ids and ARNs listed are pseudonyms.
 */
import { structuredText, type TextContent } from '@cloudg/core';

/** `<what>: <JSON>`, as a text block the output pipeline transforms by key. */
export function listedHint(what: string, data: Record<string, unknown>): TextContent {
  return structuredText(data, { prefix: `${what}: ` });
}

/** ` N close match(es) are listed with this error.`, or nothing when there are none. */
export function matchesPhrase(count: number): string {
  if (count === 0) return '';
  return count === 1
    ? ' 1 close match is listed with this error.'
    : ` ${count} close matches are listed with this error.`;
}
