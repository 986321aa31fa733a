import type { JsonObject, ToolContext } from '@cloudg/core';
import type { Dataset } from '../../dataset/dataset.js';
import type { Workspace } from '../../workspace/workspace.js';

/** The reference's `analysis(top=25)`. */
const TOP = 25;
/** Largest page and list the graph tools hand out. */
const PAGE = 500;

/**
 * `inventory-dependencies.json` (INVENTORY_REFERENCE.md 13): shared dependencies and the
 * largest blast radius (top 25 each), every cross-account edge, the security service coverage
 * and the unresolved references.
 *
 * The first four sections are the graph tools' answers (shared_dependencies,
 * largest_blast_radius, cross_account_edges, security_coverage), each requested through the
 * layer as this caller, the way a prompt embeds a resource: the tools' own ranking and
 * dependency walks are used rather than copied, and the policy governs each request as if
 * the caller had made it (visibility, rate limit, audit, output pipeline). A section the
 * caller may not request is left out of the file. Security coverage lists hold at most 500
 * entries each, the tool's cap.
 */
export async function dependenciesFile(
  ctx: ToolContext<Workspace>,
  datasetName: string,
  source: Dataset,
): Promise<Record<string, unknown>> {
  const ask = async (tool: string, args: Record<string, unknown>): Promise<JsonObject | null> => {
    const name = ctx.layer.exposedName(tool);
    if (!ctx.layer.registry.tools.has(tool)) return null;
    try {
      const result = await ctx.layer.callTool(
        name,
        { ...args, dataset: datasetName },
        {
          principal: ctx.principal,
          signal: ctx.cancellation,
          requestId: ctx.requestId,
          session: ctx.session,
        },
      );
      return result.isError ? null : ((result.structured ?? null) as JsonObject | null);
    } catch {
      // Hidden from this caller (NotFoundError): the section stays out.
      return null;
    }
  };
  const out: Record<string, unknown> = {};
  const shared = await ask('shared_dependencies', { top: TOP });
  if (shared) out.shared_dependencies = shared.items ?? [];
  const blast = await ask('largest_blast_radius', { top: TOP });
  if (blast) out.largest_blast_radius = blast.items ?? [];
  const edges: unknown[] = [];
  let cursor = '';
  let complete = false;
  for (;;) {
    ctx.throwIfAborted();
    const page = await ask('cross_account_edges', { limit: PAGE, cursor });
    if (!page) break;
    edges.push(...((page.items as unknown[] | undefined) ?? []));
    cursor = typeof page.next_cursor === 'string' ? page.next_cursor : '';
    if (!cursor) {
      complete = true;
      break;
    }
  }
  if (complete) out.cross_account_edges = edges;
  const coverage = await ask('security_coverage', { limit: PAGE });
  if (coverage) {
    const items = (v: unknown) => ((v as { items?: unknown[] } | undefined)?.items ?? []) as unknown[];
    out.security_coverage = {
      services_by_account_region: coverage.services_by_account_region ?? {},
      gaps: items(coverage.gaps),
      workloads_without_vulnerability_scanning: items(coverage.workloads_without_vulnerability_scanning),
      internet_facing_without_waf: items(coverage.internet_facing_without_waf),
    };
  }
  out.unresolved_references = source.unresolved_references;
  return out;
}
