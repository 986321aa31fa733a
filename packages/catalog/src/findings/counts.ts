/**
 * Counts of values, largest first; ties keep the order the values were first seen in. This is
 * the order the reference's `by_tool` shows (a stable sort by count over first-seen order), so
 * on the sample estate trivy, checkov and iam, one finding each, come in dataset order.
 */
export function largestFirstInOrder(values: Iterable<string>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}
