import type { ControlRef } from '../loaders/finding-factory.js';
import type { Finding } from '../model/finding.js';
import { severityRank } from '../model/severity.js';
import { findingCheck } from './check-ids.js';
import type { RulesetCatalog } from './ruleset-catalog.js';
import { normaliseTitle } from './titles.js';

/**
 * The strict cross-scanner merge: two findings of different scanners become one only when they
 * are about the same resource in the same account and region, their titles match once scanner
 * tags and punctuation are set aside, and `check_equivalence.yaml` maps both checks to the same
 * canonical check. Anything less stays two findings: a visible duplicate costs less than a
 * scanner's result quietly disappearing. The first copy is kept (its id, title and suppression
 * survive) with the worst severity, the union of frameworks and controls, and the other scanner
 * in `also_reported_by`, as the loaders' deduplication does.
 */
export function mergeEquivalentChecks(
  findings: readonly Finding[],
  catalog: RulesetCatalog,
  signal?: AbortSignal,
): { findings: Finding[]; merged: number } {
  const kept = new Map<string, Finding>();
  const out: Finding[] = [];
  let merged = 0;
  findings.forEach((f, i) => {
    if (i % 4096 === 0) signal?.throwIfAborted();
    const check = findingCheck(f);
    const canonical = check ? catalog.canonicalCheck(f.source_tool, check) : undefined;
    if (!canonical) {
      out.push(f);
      return;
    }
    const key = [
      canonical,
      (f.resource_arn ?? f.resource_id ?? '').toLowerCase(),
      (f.account_id ?? '').toLowerCase(),
      (f.region ?? '').toLowerCase(),
      normaliseTitle(f.title),
    ].join('\u0000');
    const first = kept.get(key);
    if (!first || first.source_tool.toLowerCase() === f.source_tool.toLowerCase()) {
      if (!first) kept.set(key, f);
      out.push(f);
      return;
    }
    mergeInto(first, f);
    merged += 1;
  });
  return { findings: out, merged };
}

function mergeInto(kept: Finding, f: Finding): void {
  if (severityRank(f.severity) > severityRank(kept.severity)) kept.severity = f.severity;
  kept.compliance_frameworks = [...new Set([...kept.compliance_frameworks, ...f.compliance_frameworks])];
  const controls = Array.isArray(kept.compliance_controls)
    ? [...(kept.compliance_controls as ControlRef[])]
    : [];
  for (const c of Array.isArray(f.compliance_controls) ? (f.compliance_controls as ControlRef[]) : []) {
    if (!controls.some((k) => k.framework === c.framework && k.control_id === c.control_id)) controls.push(c);
  }
  if (controls.length) kept.compliance_controls = controls;
  const also = Array.isArray(kept.also_reported_by) ? [...(kept.also_reported_by as string[])] : [];
  if (!also.includes(f.source_tool)) also.push(f.source_tool);
  kept.also_reported_by = also;
  if (kept.cvss_score === null && f.cvss_score !== null) kept.cvss_score = f.cvss_score;
}
