/**
 * `extends` merging (section 5.2): scalars and `allow_*` lists are replaced, mappings merge
 * recursively, `deny_*` lists only grow, and rule-like lists are concatenated parent first.
 */

/** Lists concatenated at any depth, parent first. */
const CONCATENATED = new Set(['rules', 'detectors', 'rate_limits', 'disabled_detectors']);

export type PolicyDict = Record<string, unknown>;

export function isDict(value: unknown): value is PolicyDict {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function union(parent: unknown[], child: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of [...parent, ...child]) {
    if (!out.some((seen) => JSON.stringify(seen) === JSON.stringify(item))) out.push(item);
  }
  return out;
}

/** Merge a child policy document over its parent. Neither input is modified; `extends` is dropped. */
export function mergePolicyDicts(parent: PolicyDict, child: PolicyDict): PolicyDict {
  const out: PolicyDict = {};
  for (const [key, value] of Object.entries(parent)) {
    if (key !== 'extends') out[key] = structuredClone(value);
  }
  for (const [key, value] of Object.entries(child)) {
    if (key === 'extends') continue;
    const current = out[key];
    if (Array.isArray(current) && Array.isArray(value) && key.startsWith('deny_')) {
      out[key] = union(current, value);
    } else if (Array.isArray(current) && Array.isArray(value) && CONCATENATED.has(key)) {
      out[key] = [...current, ...structuredClone(value)];
    } else if (isDict(current) && isDict(value)) {
      out[key] = mergePolicyDicts(current, value);
    } else {
      out[key] = structuredClone(value);
    }
  }
  return out;
}
