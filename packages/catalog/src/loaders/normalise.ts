import type { CloudAsset } from '../model/asset.js';
import { edgeDedupKey, type NetworkEdge } from '../model/edge.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import { severityRank } from '../model/severity.js';
import type { ControlRef } from './finding-factory.js';

/**
 * Normalisation of loaded data: findings deduplicated within and across scanners and their
 * control references turned into compliance results; assets deduplicated on their identifier
 * with edges re-pointed. Pure functions: callers install the result in one step.
 */

function findingCheck(f: Finding): string {
  const check = typeof f.check_id === 'string' ? f.check_id : (f.source_finding_id ?? '');
  return (check || f.title).toLowerCase();
}

function findingResource(f: Finding): string {
  return (f.resource_arn ?? f.resource_id ?? '').toLowerCase();
}

/** Account and region: the same check on the same resource id in two regions is two findings. */
function findingScope(f: Finding): string {
  return `${(f.account_id ?? '').toLowerCase()}\u0000${(f.region ?? '').toLowerCase()}`;
}

function findingLocation(f: Finding): string {
  return typeof f.location === 'string' ? f.location : '';
}

function controlsOf(f: Finding): ControlRef[] {
  return Array.isArray(f.compliance_controls) ? (f.compliance_controls as ControlRef[]) : [];
}

/** Why two findings were merged into one. */
export type MergeReason = 'same_check' | 'same_problem_other_scanner' | 'equivalent_check';

export const MERGE_REASONS: Readonly<Record<MergeReason, string>> = {
  same_check:
    'One scanner reported the same check on the same resource, account, region and location more than once (a report read twice, overlapping directories, or several flagged paths inside one resource).',
  same_problem_other_scanner:
    'Another scanner reported the same problem (same title) on the same resource, account and region; the first copy is kept and the other scanner is listed in also_reported_by.',
  equivalent_check:
    'Another scanner reported a check that the rulesets list as equivalent (check_equivalence) with the same title on the same resource; the first copy is kept.',
};

/** How many findings deduplication merged, per reason. */
export interface DeduplicationReport {
  /** Findings read minus findings kept. */
  merged: number;
  reasons: { reason: MergeReason; merged: number; description: string }[];
}

export function emptyDeduplication(): DeduplicationReport {
  return { merged: 0, reasons: [] };
}

/** Add one report's counts to another's (several files or paths read in one call). */
export function addDeduplication(into: DeduplicationReport, more: DeduplicationReport): DeduplicationReport {
  for (const r of more.reasons) {
    const known = into.reasons.find((k) => k.reason === r.reason);
    if (known) known.merged += r.merged;
    else into.reasons.push({ ...r });
  }
  into.merged += more.merged;
  return into;
}

/**
 * Merge duplicate findings. Two findings are the same when one scanner reports the same check on
 * the same resource, account, region and location (a file and line, a package, a workload) more
 * than once, or when a different scanner reports the same title on the same resource, account
 * and region. One scanner's findings never merge on their title alone: two checks that share a
 * title stay two findings. The first copy is kept with the worst severity, the union of
 * frameworks and controls, and the other tools listed in `also_reported_by`.
 */
export function dedupeFindingsReport(findings: readonly Finding[]): {
  findings: Finding[];
  deduplication: DeduplicationReport;
} {
  const byCheck = new Map<string, Finding>();
  const byTitle = new Map<string, Finding>();
  const out: Finding[] = [];
  const counts = new Map<MergeReason, number>();
  for (const f of findings) {
    const resource = findingResource(f);
    const scope = findingScope(f);
    const tool = f.source_tool.toLowerCase();
    const checkKey = `${tool}\u0000${findingCheck(f)}\u0000${resource}\u0000${scope}\u0000${findingLocation(f)}`;
    const titleKey = `${f.title.trim().toLowerCase()}\u0000${resource}\u0000${scope}`;
    let kept = byCheck.get(checkKey);
    let reason: MergeReason = 'same_check';
    if (!kept) {
      const other = byTitle.get(titleKey);
      // Only a different scanner's finding merges on the title (see above).
      if (other && other.source_tool.toLowerCase() !== tool) {
        kept = other;
        reason = 'same_problem_other_scanner';
      }
    }
    if (!kept) {
      // Every array a merge grows is copied here: the originals are the dataset's live findings,
      // which must stay exactly as they are until the caller swaps the result in (a cancelled
      // normalise_findings or ingest_reports leaves the dataset untouched).
      const copy: Finding = { ...f, compliance_frameworks: [...f.compliance_frameworks] };
      if (Array.isArray(f.compliance_controls)) copy.compliance_controls = [...f.compliance_controls];
      if (Array.isArray(f.also_reported_by)) copy.also_reported_by = [...f.also_reported_by];
      byCheck.set(checkKey, copy);
      if (!byTitle.has(titleKey)) byTitle.set(titleKey, copy);
      out.push(copy);
      continue;
    }
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
    mergeInto(kept, f);
  }
  const reasons = [...counts].map(([reason, merged]) => ({
    reason,
    merged,
    description: MERGE_REASONS[reason],
  }));
  return { findings: out, deduplication: { merged: findings.length - out.length, reasons } };
}

/** Merge duplicate findings (see `dedupeFindingsReport`), without the report. */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  return dedupeFindingsReport(findings).findings;
}

function mergeInto(kept: Finding, f: Finding): void {
  if (severityRank(f.severity) > severityRank(kept.severity)) kept.severity = f.severity;
  for (const fw of f.compliance_frameworks)
    if (!kept.compliance_frameworks.includes(fw)) kept.compliance_frameworks.push(fw);
  const controls = controlsOf(kept);
  for (const c of controlsOf(f)) {
    if (!controls.some((k) => k.framework === c.framework && k.control_id === c.control_id)) controls.push(c);
  }
  if (controls.length) kept.compliance_controls = controls;
  if (f.source_tool !== kept.source_tool) {
    const also = Array.isArray(kept.also_reported_by) ? (kept.also_reported_by as string[]) : [];
    if (!also.includes(f.source_tool)) also.push(f.source_tool);
    kept.also_reported_by = also;
  }
  if (kept.cvss_score === null && f.cvss_score !== null) kept.cvss_score = f.cvss_score;
  kept.evidence = mergeEvidence(kept.evidence, f.evidence);
}

/** Most evidence lines a merged finding keeps (one per merged copy that said something new). */
export const MAX_EVIDENCE_LINES = 20;

/**
 * The evidence of a merged copy is kept on its own line (a ScoutSuite rule that flagged a
 * security group's ingress and egress paths keeps both), unless it says nothing new; past
 * `MAX_EVIDENCE_LINES` one last line says that more were left out.
 */
function mergeEvidence(kept: string | null, more: string | null): string | null {
  if (!more || kept === more) return kept;
  if (!kept) return more;
  const lines = kept.split('\n');
  if (lines.includes(more)) return kept;
  if (lines.length > MAX_EVIDENCE_LINES) return kept;
  if (lines.length === MAX_EVIDENCE_LINES) return `${kept}\n(more evidence left out)`;
  return `${kept}\n${more}`;
}

/** Looks up a control's title in the rulesets, for results created from findings' controls. */
export type ControlTitleLookup = (framework: string, controlId: string) => string | undefined;

/** A compliance result being built, with its finding ids as a set (order of first listing). */
interface ControlTally {
  result: ComplianceResult;
  ids: Set<string>;
}

function controlKey(c: { framework: string; control_id: string }): string {
  return `${c.framework}\u0000${c.control_id}`;
}

/**
 * Adds each finding to the tally of every control it fails (a new tally is a FAIL result titled
 * by `titleOf`). Linear in findings times controls, with sets for membership: one control
 * failed by tens of thousands of findings (a check run in every region of every account) is
 * common, and array lookups made this quadratic (36 s at 20,000).
 */
function tallyFindings(
  tallies: Map<string, ControlTally>,
  findings: readonly Finding[],
  titleOf: ControlTitleLookup | undefined,
): void {
  // Grouped by control object first: the mapper shares one among all the findings that fail a
  // control, so this is one map lookup and an array push per finding and control (measured
  // faster than adding to the sets directly), and the string key is built once per object.
  const byRef = new Map<ControlRef, { ids: string[]; unsuppressed: boolean }>();
  for (const f of findings) {
    for (const ref of controlsOf(f)) {
      const group = byRef.get(ref);
      if (group) {
        group.ids.push(f.id);
        group.unsuppressed ||= !f.is_suppressed;
      } else byRef.set(ref, { ids: [f.id], unsuppressed: !f.is_suppressed });
    }
  }
  for (const [ref, group] of byRef) {
    const key = controlKey(ref);
    const tally = tallies.get(key);
    if (!tally) {
      const result: ComplianceResult = {
        id: `${ref.framework}/${ref.control_id}`,
        framework: ref.framework,
        control_id: ref.control_id,
        control_title: titleOf?.(ref.framework, ref.control_id) ?? '',
        status: 'FAIL',
        finding_ids: [],
      };
      tallies.set(key, { result, ids: new Set(group.ids) });
      continue;
    }
    for (const id of group.ids) tally.ids.add(id);
    if (group.unsuppressed) tally.result.status = 'FAIL';
  }
}

/**
 * Compliance results from the controls findings say they fail, merged into existing results:
 * a control already present gains the new finding ids (and fails); a new one is added as FAIL,
 * titled by `titleOf` when given.
 */
export function mergeControlResults(
  existing: readonly ComplianceResult[],
  findings: readonly Finding[],
  titleOf?: ControlTitleLookup,
): ComplianceResult[] {
  const tallies = new Map<string, ControlTally>();
  for (const c of existing) tallies.set(controlKey(c), { result: { ...c }, ids: new Set(c.finding_ids) });
  tallyFindings(tallies, findings, titleOf);
  return [...tallies.values()].map(({ result, ids }) => ({ ...result, finding_ids: [...ids] }));
}

/**
 * A dataset's compliance results after its findings were (re-)normalised, the way the
 * reference's `merge_compliance` does it: a control the findings evaluate gets the fresh FAIL
 * result plus any surviving finding ids the old result listed; a control they do not evaluate
 * (scanner-native mappings, PASS results) is kept with its finding ids filtered to findings that
 * still exist, and dropped only when it had findings and all of them are gone. The one
 * implementation of this rule: ingesting, `normalise_findings` and the live tools all use it.
 */
export function mergeComplianceResults(
  existing: readonly ComplianceResult[],
  findings: readonly Finding[],
  titleOf?: ControlTitleLookup,
): ComplianceResult[] {
  const fresh = new Map<string, ControlTally>();
  tallyFindings(fresh, findings, titleOf);
  const alive = new Set(findings.map((f) => f.id));
  const out: ComplianceResult[] = [];
  for (const old of existing) {
    const key = controlKey(old);
    const surviving = old.finding_ids.filter((id) => alive.has(id));
    const now = fresh.get(key);
    if (now) {
      fresh.delete(key);
      for (const id of surviving) now.ids.add(id);
      out.push({
        ...old,
        ...now.result,
        id: old.id,
        control_title: old.control_title || now.result.control_title,
        finding_ids: [...now.ids],
      });
      continue;
    }
    if (old.finding_ids.length > 0 && surviving.length === 0) continue;
    out.push({ ...old, finding_ids: surviving });
  }
  for (const { result, ids } of fresh.values()) out.push({ ...result, finding_ids: [...ids] });
  return out;
}

/** Make ids unique (`-2`, `-3`...) when normalisation was skipped and duplicates remain. */
export function uniqueFindingIds(findings: Finding[]): Finding[] {
  const seen = new Map<string, number>();
  for (const f of findings) {
    const n = seen.get(f.id) ?? 0;
    seen.set(f.id, n + 1);
    if (n > 0) f.id = `${f.id}-${n + 1}`;
  }
  return findings;
}

/**
 * One asset per identifier: the first copy wins, exposure is OR-ed and metadata aliases and
 * relations are merged; edges are re-pointed to the kept copy, deduplicated on
 * (source, target, edge_type), and self-loops dropped.
 */
export function dedupeAssets(
  assets: readonly CloudAsset[],
  edges: readonly NetworkEdge[],
): { assets: CloudAsset[]; edges: NetworkEdge[] } {
  const keptByKey = new Map<string, CloudAsset>();
  const redirect = new Map<string, string>();
  const out: CloudAsset[] = [];
  for (const a of assets) {
    const key = a.arn ?? `id:${a.id}`;
    const kept = keptByKey.get(key);
    if (!kept) {
      keptByKey.set(key, a);
      if (a.arn) keptByKey.set(`id:${a.id}`, a);
      out.push(a);
      continue;
    }
    redirect.set(a.id, kept.id);
    kept.is_internet_exposed ||= a.is_internet_exposed;
    for (const listKey of ['aliases', 'relations']) {
      const mine = kept.metadata[listKey];
      const theirs = a.metadata[listKey];
      if (!Array.isArray(theirs)) continue;
      const merged = Array.isArray(mine) ? [...mine] : [];
      const seen = new Set(merged.map((x) => JSON.stringify(x)));
      for (const x of theirs) if (!seen.has(JSON.stringify(x))) merged.push(x);
      kept.metadata = { ...kept.metadata, [listKey]: merged };
    }
  }
  if (redirect.size === 0 && !hasDuplicateEdges(edges)) return { assets: out, edges: [...edges] };
  const seenEdges = new Set<string>();
  const outEdges: NetworkEdge[] = [];
  for (const e of edges) {
    const source = redirect.get(e.source_id) ?? e.source_id;
    const target = redirect.get(e.target_id) ?? e.target_id;
    if (source === target) continue;
    const edge =
      source === e.source_id && target === e.target_id ? e : { ...e, source_id: source, target_id: target };
    const key = edgeDedupKey(edge);
    if (seenEdges.has(key)) continue;
    seenEdges.add(key);
    outEdges.push(edge);
  }
  return { assets: out, edges: outEdges };
}

function hasDuplicateEdges(edges: readonly NetworkEdge[]): boolean {
  const seen = new Set<string>();
  for (const e of edges) {
    if (e.source_id === e.target_id) return true;
    const key = edgeDedupKey(e);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/**
 * Re-normalise a dataset's findings, optionally with new ones (ingest): duplicates merge (the
 * copy already in the dataset wins, so ids and suppressions survive) and the compliance results
 * follow (`mergeComplianceResults`).
 */
export function normaliseFindingSet(
  existing: readonly Finding[],
  compliance: readonly ComplianceResult[],
  added: readonly Finding[] = [],
): { findings: Finding[]; compliance: ComplianceResult[]; deduplication: DeduplicationReport } {
  const { findings, deduplication } = dedupeFindingsReport([...existing, ...added]);
  return { findings, compliance: mergeComplianceResults(compliance, findings), deduplication };
}
