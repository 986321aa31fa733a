/** Media-type checks for `Content-Type` and `Accept`. */

/** Whether `Content-Type` is `application/json` (parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  return value.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export interface Accepts {
  json: boolean;
  sse: boolean;
}

/** What an `Accept` header admits. A missing or empty header admits both. */
export function parseAccept(value: string | undefined): Accepts {
  if (!value || value.trim() === '') return { json: true, sse: true };
  const types = value.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '');
  const has = (...candidates: string[]) => types.some((t) => candidates.includes(t));
  return {
    json: has('application/json', 'application/*', '*/*'),
    sse: has('text/event-stream', 'text/*', '*/*'),
  };
}
