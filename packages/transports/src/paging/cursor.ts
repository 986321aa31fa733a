/**
 * Protocol list paging. A cursor is URL-safe base64 (no padding) of `{"k": kind, "o": offset}`:
 * opaque to clients, and bound to the list it came from.
 */
import { invalidParams } from '../jsonrpc/errors.js';

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'tasks';

export const DEFAULT_PAGE_SIZE = 100;

export function encodeCursor(kind: ListKind, offset: number): string {
  return Buffer.from(JSON.stringify({ k: kind, o: offset })).toString('base64url');
}

/** The offset a cursor points at; -32602 "Invalid cursor" for garbage, another list's cursor or a bad offset. */
export function decodeCursor(kind: ListKind, cursor: unknown): number {
  const invalid = () => invalidParams('Invalid cursor');
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof decoded !== 'object' || decoded === null) throw invalid();
  const { k, o } = decoded as { k?: unknown; o?: unknown };
  if (k !== kind || typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw invalid();
  return o;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** One page of `items`. A page size of 0 turns paging off (everything, no cursor). */
export function paginate<T>(kind: ListKind, items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = cursor === undefined || cursor === null ? 0 : decodeCursor(kind, cursor);
  if (pageSize <= 0) return { items: items.slice(offset), nextCursor: undefined };
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor(kind, end) : undefined,
  };
}
