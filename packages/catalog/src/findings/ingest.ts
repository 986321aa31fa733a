/**
 * The work of `ingest_reports`, apart from the tool so that a replica can do again what another
 * did (see workspace/operations.ts): the same reports, read from the same paths, into the same
 * dataset.
 */
import { join, relative } from 'node:path';
import { InvalidArgumentsError, type McpLayerError } from '@cloudg/core';
import { normaliseFindings, providerFromResource } from '../compliance/normaliser.js';
import { workspaceRulesets } from '../compliance/workspace-rulesets.js';
import { Dataset } from '../dataset/dataset.js';
import type { LoadKind } from '../loaders/load.js';
import {
  type DeduplicationReport,
  dedupeFindingsReport,
  emptyDeduplication,
  MERGE_REASONS,
  uniqueFindingIds,
} from '../loaders/normalise.js';
import type { Finding } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { prepareFindings } from './prepare.js';

/** The scanners whose output `ingest_reports` parses, in the reference's order. */
export const INGEST_TOOLS = ['prowler', 'scoutsuite', 'checkov', 'trivy'] as const;
export type IngestTool = (typeof INGEST_TOOLS)[number];

/**
 * Name of a new dataset when the caller gives none (made unique). The reference used `ingested`,
 * an ordinary word: as a dataset name it is an identifier that strict policies pseudonymise, and
 * the word also occurs in the catalog's own texts ("ingested findings"), which then read as
 * naming the dataset. A name no sentence uses avoids both.
 */
export const DEFAULT_NEW_DATASET = 'ingested-reports';

/** Most paths one call reads, so a call cannot queue unbounded work. */
export const MAX_INGEST_PATHS = 100;

interface PathResult {
  tool: IngestTool;
  path: string;
  findings: number;
}

interface PathError {
  tool: string;
  path: string;
  error: string;
}

/**
 * The tool names, checked before anything is read. The message lists the supported tools but not
 * the caller's names (they are in `data.unsupported`), as every error of this catalog does; the
 * reference's text echoed them ("Unsupported tool(s) nmap. ...").
 */
function parseTools(reports: Record<string, string[]>): [IngestTool, string[]][] {
  const out: [IngestTool, string[]][] = [];
  const unsupported: string[] = [];
  for (const [name, paths] of Object.entries(reports)) {
    const tool = name.trim().toLowerCase();
    if ((INGEST_TOOLS as readonly string[]).includes(tool)) out.push([tool as IngestTool, paths]);
    else unsupported.push(name);
  }
  if (unsupported.length) {
    throw new InvalidArgumentsError(`Unsupported tool(s). Supported: ${INGEST_TOOLS.join(', ')}`, {
      data: { unsupported, supported: [...INGEST_TOOLS] },
    });
  }
  return out;
}

/** An issue's file under the path the caller gave (never the resolved absolute path). */
function underCallerPath(given: string, resolved: string, file: string): string {
  return file === resolved ? given : join(given, relative(resolved, file));
}

/**
 * How many findings name an asset of the dataset (by ARN, id, name or ARN tail), through the
 * same matcher as asset references.
 */
function matchedToAssets(dataset: Dataset | null, findings: readonly Finding[]): number {
  if (!dataset || dataset.assets.length === 0) return 0;
  const matcher = dataset.indexes.matcher;
  let n = 0;
  for (const f of findings) {
    const refs = [f.resource_arn, f.resource_id].filter(
      (r): r is string => typeof r === 'string' && r !== '',
    );
    if (refs.some((r) => matcher.find(r) !== null)) n += 1;
  }
  return n;
}

/** The arguments of `ingest_reports`, as parsed. */
export interface IngestRequest {
  reports: Record<string, string[]>;
  dataset: string;
  new_dataset: boolean;
  normalise: boolean;
  activate: boolean;
  replace: boolean;
}

/**
 * Parse the reports and add their findings to the dataset (or a new one). Returns the tool's
 * result and the request as every replica can repeat it (the new dataset's name settled).
 */
export async function ingestReports(
  ws: Workspace,
  args: IngestRequest,
  signal: AbortSignal,
): Promise<{ result: Record<string, unknown>; settled: IngestRequest }> {
  const jobs = parseTools(args.reports);
  const total = jobs.reduce((n, [, paths]) => n + paths.length, 0);
  if (total > MAX_INGEST_PATHS) {
    throw new InvalidArgumentsError(`Too many report paths: at most ${MAX_INGEST_PATHS} per call.`, {
      data: { paths: total, max: MAX_INGEST_PATHS },
    });
  }

  // The target is settled before anything is read: a name clash or an unknown dataset fails
  // the call with nothing parsed.
  const newName = args.new_dataset ? args.dataset || ws.uniqueName(DEFAULT_NEW_DATASET) : null;
  if (newName !== null) ws.checkName(newName, { replace: args.replace });
  const target = newName === null ? ws.get(args.dataset || null) : null;

  // One path outside the allowed roots (or a protected file) fails the whole call.
  for (const [, paths] of jobs) for (const p of paths) ws.checkPath(p, { mustExist: false });

  const perPath: PathResult[] = [];
  const errors: PathError[] = [];
  const parsed: Finding[] = [];
  for (const [tool, paths] of jobs) {
    for (const path of paths) {
      signal.throwIfAborted();
      const resolved = ws.checkPath(path, { mustExist: false });
      try {
        const outcome = await ws.parsePath(path, {
          kind: tool as LoadKind,
          normalise: false,
          signal,
        });
        const findings = outcome.data.findings ?? [];
        parsed.push(...findings);
        perPath.push({ tool, path, findings: findings.length });
        for (const issue of outcome.issues) {
          errors.push({ tool, path: underCallerPath(path, resolved, issue.path), error: issue.error });
        }
      } catch (error) {
        // Access errors were ruled out above; anything but a report problem is a real failure.
        if (!(error instanceof InvalidArgumentsError) || signal.aborted) throw error;
        errors.push({ tool, path, error: describeFailure(error, resolved) });
      }
    }
  }

  const existing = target?.findings ?? [];
  const before = existing.length;
  let findings: Finding[];
  let compliance = target?.compliance ?? [];
  let deduplication: DeduplicationReport = emptyDeduplication();
  if (args.normalise) {
    // The same normaliser as normalise_findings, over the dataset's findings plus the new ones.
    const outcome = normaliseFindings({
      findings: [...existing, ...parsed],
      compliance,
      catalog: await workspaceRulesets(ws),
      providerOf: (f) => target?.indexes.assetOfFinding(f)?.provider.toLowerCase() ?? providerFromResource(f),
      signal,
    });
    findings = outcome.findings;
    compliance = outcome.compliance;
    deduplication = mergeReport([...existing, ...parsed], outcome.merged.equivalent_checks);
  } else {
    findings = uniqueAgainst(existing, parsed);
  }

  let dataset: Dataset;
  if (newName !== null) {
    dataset = new Dataset({ name: newName, kind: 'report', source: 'ingest', findings, compliance });
    ws.add(dataset, { activate: args.activate, replace: args.replace });
  } else {
    dataset = target as Dataset;
    dataset.findings = findings;
    dataset.compliance = compliance;
    ws.mutated(dataset);
  }
  // Build the findings columns now, as load_dataset does (findings/prepare.ts).
  await prepareFindings(dataset, signal);
  const settled: IngestRequest = {
    ...args,
    dataset: dataset.name,
    // Resolved paths: every replica reads the same files, whatever its working directory.
    reports: Object.fromEntries(
      jobs.map(([tool, paths]) => [tool, paths.map((p) => ws.checkPath(p, { mustExist: false }))]),
    ),
  };
  const result = {
    dataset: dataset.name,
    parsed: parsed.length,
    per_path: perPath,
    errors,
    findings_before: before,
    findings_after: dataset.findings.length,
    matched_to_assets: matchedToAssets(target, parsed),
    normalised: args.normalise,
    deduplication,
    active: ws.activeName,
  };
  return { result, settled };
}

/**
 * The text of a per-path error. A missing path is named by its resolved path, as the reference
 * prints it (the caller's own path is beside it in `path`); other problems keep the loader's
 * message, which never quotes the file.
 */
function describeFailure(error: McpLayerError, resolved: string): string {
  if (/^Path does not exist/.test(error.message)) return `Report path does not exist: ${resolved}`;
  return error.message;
}

/**
 * What the normaliser merged, per reason: the loaders' deduplication counted again on the same
 * input (cheap, and the normaliser reports only a total), plus the equivalent-check merges.
 */
function mergeReport(input: readonly Finding[], equivalentChecks: number): DeduplicationReport {
  const report = dedupeFindingsReport(input).deduplication;
  if (equivalentChecks > 0) {
    report.reasons.push({
      reason: 'equivalent_check',
      merged: equivalentChecks,
      description: MERGE_REASONS.equivalent_check,
    });
    report.merged += equivalentChecks;
  }
  return report;
}

/** Append without normalising: new findings whose id is taken get `-2`, `-3`... */
function uniqueAgainst(existing: readonly Finding[], added: readonly Finding[]): Finding[] {
  return uniqueFindingIds([...existing, ...added.map((f) => ({ ...f }))]);
}
