import { SEVERITIES, type Severity, severityRank } from '../model/severity.js';
import { parseSeverity } from './enums.js';

/** Severities at or above a threshold, worst first. */
export function severitiesAtOrAbove(min: Severity): Severity[] {
  return SEVERITIES.filter((s) => severityRank(s) >= severityRank(min));
}

/**
 * The severity filter of `min_severity` / `severities` arguments: a predicate, or null when
 * neither argument restricts anything. Values are parsed (and refused) here.
 */
export function severityFilter(options: {
  minSeverity?: string | null;
  severities?: readonly string[] | null;
}): ((s: Severity) => boolean) | null {
  const min = options.minSeverity ? parseSeverity(options.minSeverity) : null;
  const set = options.severities?.length ? new Set(options.severities.map(parseSeverity)) : null;
  if (!min && !set) return null;
  return (s) => (min === null || severityRank(s) >= severityRank(min)) && (set === null || set.has(s));
}

/** Compare severities, worst first (for sorting). */
export function compareSeverityDesc(a: Severity | null, b: Severity | null): number {
  return (b === null ? -1 : severityRank(b)) - (a === null ? -1 : severityRank(a));
}
