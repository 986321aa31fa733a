import type { ControlRef } from '../loaders/finding-factory.js';
import type { ComplianceResult, Finding } from '../model/finding.js';

/**
 * Compliance results from the controls mapped findings carry, merged into a dataset's existing
 * results by the rule ingesting uses (the loaders' `normaliseFindingSet`): a control the findings
 * evaluate gets a FAIL result listing them plus any surviving finding ids the old result listed;
 * a control they do not evaluate (scanner-native mappings, PASS results) is kept with its finding
 * ids filtered to findings that still exist, and dropped only when it listed findings and all of
 * them are gone. The loaders' version looks finding ids up in arrays, which is quadratic in the
 * size of a control: at 100,000 findings an aggregate control lists tens of thousands of them and
 * the merge alone took 6 s, so this one keeps a set per control.
 */
export function mergeComplianceResults(
  findings: readonly Finding[],
  existing: readonly ComplianceResult[],
  titleOf: (framework: string, controlId: string) => string | undefined,
): ComplianceResult[] {
  // Keyed by the control object first (the normaliser shares one per control, so this is one
  // lookup per finding and control), then grouped by framework and id for controls that came
  // as separate objects.
  const byRef = new Map<ControlRef, string[]>();
  for (const f of findings) {
    const controls = Array.isArray(f.compliance_controls) ? (f.compliance_controls as ControlRef[]) : [];
    for (const c of controls) {
      const ids = byRef.get(c);
      if (ids) ids.push(f.id);
      else byRef.set(c, [f.id]);
    }
  }
  const byFramework = new Map<string, Map<string, Set<string>>>();
  for (const [c, ids] of byRef) {
    let byId = byFramework.get(c.framework);
    if (!byId) {
      byId = new Map();
      byFramework.set(c.framework, byId);
    }
    const known = byId.get(c.control_id);
    if (known) for (const id of ids) known.add(id);
    else byId.set(c.control_id, new Set(ids));
  }
  const alive = new Set(findings.map((f) => f.id));
  const out: ComplianceResult[] = [];
  for (const old of existing) {
    const surviving = old.finding_ids.filter((id) => alive.has(id));
    const byId = byFramework.get(old.framework);
    const now = byId?.get(old.control_id);
    if (byId && now) {
      byId.delete(old.control_id);
      for (const id of surviving) now.add(id);
      out.push({
        ...old,
        status: 'FAIL',
        control_title: old.control_title || titleOf(old.framework, old.control_id) || '',
        finding_ids: [...now],
      });
      continue;
    }
    if (old.finding_ids.length > 0 && surviving.length === 0) continue;
    out.push({ ...old, finding_ids: surviving });
  }
  for (const [framework, byId] of byFramework) {
    for (const [control_id, ids] of byId) {
      out.push({
        id: `${framework}/${control_id}`,
        framework,
        control_id,
        control_title: titleOf(framework, control_id) ?? '',
        status: 'FAIL',
        finding_ids: [...ids],
      });
    }
  }
  return out;
}
