/** Media-type checks for `Content-Type` and `Accept`. */

/** Whether `Content-Type` is `application/json` (parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'application/json') return true;
  return value.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export interface Accepts {
  json: boolean;
  sse: boolean;
}

const BOTH: Readonly<Accepts> = Object.freeze({ json: true, sse: true });
/** Clients send the same few `Accept` values on every request: remember their answers. */
const remembered = new Map<string, Readonly<Accepts>>();
const REMEMBER_AT_MOST = 64;

/** What an `Accept` header admits. A missing or empty header admits both. */
export function parseAccept(value: string | undefined): Readonly<Accepts> {
  if (!value) return BOTH;
  let accepts = remembered.get(value);
  if (!accepts) {
    accepts = Object.freeze(readAccept(value));
    if (remembered.size >= REMEMBER_AT_MOST) remembered.clear();
    remembered.set(value, accepts);
  }
  return accepts;
}

function readAccept(value: string): Accepts {
  if (value.trim() === '') return BOTH;
  const types = value.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '');
  const has = (...candidates: string[]) => types.some((t) => candidates.includes(t));
  return {
    json: has('application/json', 'application/*', '*/*'),
    sse: has('text/event-stream', 'text/*', '*/*'),
  };
}
