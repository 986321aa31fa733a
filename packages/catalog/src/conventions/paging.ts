import { createHash } from 'node:crypto';
import { canonicalJson, InvalidArgumentsError } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';

/** Page size bounds of list tools. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

/** The envelope of every paginated list. */
export interface Page<T> {
  total: number;
  offset: number;
  returned: number;
  next_cursor: string | null;
  truncated: boolean;
  items: T[];
}

const CURSOR = /^c(\d{1,9})\.([0-9a-f]{12})$/;

/**
 * Fingerprint of a query: dataset name, version and load id, and the query arguments without
 * `limit` and `cursor` (so the page size may change between pages). 12 hex digits keep the
 * cursor short and dotted, a form the privacy profiles do not mistake for a secret. A list that
 * does not come from a dataset (a ruleset's controls) passes `null`: its cursor then depends on
 * the query alone.
 */
export function queryFingerprint(dataset: Dataset | null, query: Record<string, unknown>): string {
  const { limit: _limit, cursor: _cursor, ...filters } = query;
  const scope = dataset === null ? [null] : [dataset.name, dataset.version, dataset.loadId];
  return createHash('sha256')
    .update(canonicalJson([...scope, filters]))
    .digest('hex')
    .slice(0, 12);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return `c${offset}.${fingerprint}`;
}

export function invalidCursor(): InvalidArgumentsError {
  return new InvalidArgumentsError(
    'Invalid cursor. Pass the next_cursor value from the previous result unchanged, or omit cursor to start from the first page.',
  );
}

export function staleCursor(): InvalidArgumentsError {
  return new InvalidArgumentsError(
    'Stale cursor: the query arguments or the dataset changed since it was issued. Repeat the call without cursor to start again.',
  );
}

/** The offset a cursor points at, after checking it belongs to this query and dataset version. */
export function decodeCursor(cursor: string | null | undefined, fingerprint: string): number {
  if (!cursor) return 0;
  const match = CURSOR.exec(cursor.trim());
  if (!match) throw invalidCursor();
  if (match[2] !== fingerprint) throw staleCursor();
  return Number(match[1]);
}

/** Check a `limit` argument (1 to max). */
export function checkLimit(
  limit: number | null | undefined,
  max = MAX_LIMIT,
  fallback = DEFAULT_LIMIT,
): number {
  const value = limit ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentsError(`limit must be an integer from 1 to ${max}.`, {
      data: { value, min: 1, max },
    });
  }
  return value;
}

export interface PageRequest {
  /** The dataset the items come from; null for lists that do not depend on one. */
  dataset: Dataset | null;
  /** The tool's arguments (filters, sort; `limit` and `cursor` are ignored for the fingerprint). */
  query: Record<string, unknown>;
  limit?: number | null;
  cursor?: string | null;
}

/** One page of `items` (already filtered and sorted) with its envelope and next cursor. */
export function paginate<T>(items: readonly T[], request: PageRequest): Page<T> {
  const limit = checkLimit(request.limit);
  const fingerprint = queryFingerprint(request.dataset, request.query);
  const offset = decodeCursor(request.cursor, fingerprint);
  if (offset > items.length) throw staleCursor();
  const page = items.slice(offset, offset + limit);
  const end = offset + page.length;
  const more = end < items.length;
  return {
    total: items.length,
    offset,
    returned: page.length,
    next_cursor: more ? encodeCursor(end, fingerprint) : null,
    truncated: more,
    items: page,
  };
}
