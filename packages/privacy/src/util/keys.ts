/**
 * Dict-key normalisation for key rules: camelCase is split and every run of other characters
 * becomes `_`, so `SecretAccessKey`, `secret-access-key` and `secretAccessKey` all read
 * `secret_access_key`. Keys repeat across a result, so results are memoised.
 */

const cache = new Map<string, string>();
const CACHE_LIMIT = 50_000;

function compute(key: string): string {
  return (
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      // An acronym ends before its last capital when a lower-case letter follows (`HTTPServer`).
      // Written as a lookahead: `([A-Z]+)([A-Z][a-z])` re-reads a long run of capitals from every
      // capital, quadratic in the key.
      .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1_')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
  );
}

export function normalizeKey(key: string): string {
  let out = cache.get(key);
  if (out === undefined) {
    out = compute(key);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, out);
  }
  return out;
}
