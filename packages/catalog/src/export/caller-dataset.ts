import type { JsonValue, ToolContext } from '@cloudg/core';
import { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { CollectionCoverage } from '../model/coverage.js';
import type { NetworkEdge } from '../model/edge.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import type { OrganizationTopology } from '../model/organization.js';
import type { UnresolvedReference } from '../model/unresolved.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * Rendered size (compact JSON) of one batch of records sent through the caller's output
 * pipeline. Well under any projection budget a policy is likely to set (the built-in profiles
 * allow 100,000 to 120,000 characters of indented JSON), so a batch comes back whole.
 */
const BATCH_CHARS = 24_000;

/** What an export writes from: the dataset as the caller may see it. */
export interface ExportSource {
  /** The dataset whose data is written: the real one, or a transformed copy. */
  dataset: Dataset;
  /** The dataset's name as the caller is shown it (a pseudonym under strict). */
  name: string;
  /** Whether the data passed through the caller's output pipeline. */
  transformed: boolean;
}

/**
 * The data of `dataset` as this call's caller is shown it. Files an export writes are content
 * for the caller like a result, so the policy's output pipeline (pseudonyms, redaction, fences,
 * the projection's exclusions) applies to them; writing the raw dataset would bypass the policy.
 *
 * Records go through `ctx.forCaller` in batches rather than as one value: the pipeline's
 * projection keeps a result within a size budget, which would cut a whole estate short, while
 * a batch of a few records stays far below it. A batch that still comes back shorter (a policy
 * with a tiny budget) is sent again record by record. Every record of one call meets the same
 * pipeline, and pseudonyms are deterministic, so an id and every reference to it change alike
 * and the copy's graph has the shape of the original.
 *
 * Without output transforms for this call the dataset itself is used, with its cached graphs.
 */
export async function exportSource(
  ctx: ToolContext<Workspace>,
  dataset: Dataset,
  pick?: { assets: readonly CloudAsset[]; edges: readonly NetworkEdge[] },
): Promise<ExportSource> {
  if (!ctx.transformsOutput) {
    const data = pick
      ? new Dataset({
          ...plainParts(dataset),
          assets: [...pick.assets],
          edges: [...pick.edges],
          name: dataset.name,
          kind: dataset.kind,
          source: dataset.source,
        })
      : dataset;
    return { dataset: data, name: dataset.name, transformed: false };
  }
  const shownName = await ctx.forCaller(dataset.name);
  const name = typeof shownName === 'string' && shownName ? shownName : 'dataset';
  const assets = await recordsForCaller(ctx, pick?.assets ?? dataset.assets);
  const edges = await recordsForCaller(ctx, pick?.edges ?? dataset.edges);
  const findings = pick ? [] : await recordsForCaller(ctx, dataset.findings);
  const compliance = pick ? [] : await recordsForCaller(ctx, dataset.compliance);
  const unresolved = pick ? [] : await recordsForCaller(ctx, dataset.unresolved_references);
  const coverage = pick ? [] : await recordsForCaller(ctx, dataset.coverage);
  const organization =
    pick || dataset.organization === null
      ? null
      : ((await ctx.forCaller(
          dataset.organization as unknown as JsonValue,
        )) as unknown as OrganizationTopology);
  const regions = (await ctx.forCaller(dataset.regions as unknown as JsonValue)) as Record<string, string[]>;
  const copy = new Dataset({
    name,
    kind: dataset.kind,
    source: 'export',
    assets: assets as unknown as CloudAsset[],
    edges: edges as unknown as NetworkEdge[],
    findings: findings as unknown as Finding[],
    compliance: compliance as unknown as ComplianceResult[],
    unresolved_references: unresolved as unknown as UnresolvedReference[],
    coverage: coverage as unknown as CollectionCoverage[],
    organization,
    providers: [...dataset.providers],
    regions,
  });
  return { dataset: copy, name, transformed: true };
}

function plainParts(dataset: Dataset) {
  return {
    findings: dataset.findings,
    compliance: dataset.compliance,
    coverage: dataset.coverage,
    organization: dataset.organization,
    unresolved_references: dataset.unresolved_references,
    providers: dataset.providers,
    regions: dataset.regions,
  };
}

/** `records` through the caller's output pipeline, in batches, in order, none lost. */
export async function recordsForCaller(
  ctx: ToolContext<Workspace>,
  records: readonly object[],
): Promise<JsonValue[]> {
  const out: JsonValue[] = [];
  let batch: JsonValue[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    ctx.throwIfAborted();
    const shown = await ctx.forCaller(batch);
    if (Array.isArray(shown) && shown.length === batch.length && shown.every(isRecord)) {
      out.push(...shown);
    } else {
      // Cut by the projection: one record at a time, which the budget leaves whole or shortens
      // within the record (as it would in a result), never dropped.
      for (const record of batch) out.push(await ctx.forCaller(record));
    }
    batch = [];
    size = 0;
  };
  for (const record of records) {
    const value = record as unknown as JsonValue;
    const length = JSON.stringify(value).length;
    if (size + length > BATCH_CHARS) await flush();
    batch.push(value);
    size += length;
  }
  await flush();
  return out;
}

function isRecord(value: JsonValue): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
