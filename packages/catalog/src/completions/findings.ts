import type { ToolContext } from '@cloudg/core';
import { findingsSortedBy } from '../findings/sorted.js';
import { SEVERITIES } from '../model/severity.js';
import type { Workspace } from '../workspace/workspace.js';

/** The dataset named in the completion request's context arguments, else the active one. */
function contextDataset(ctx: ToolContext<Workspace>) {
  const args = ctx.meta.arguments as Record<string, unknown> | undefined;
  const named = typeof args?.dataset === 'string' ? args.dataset.trim() : '';
  const ws = ctx.app;
  if (named ? !ws.has(named) : ws.activeName === null) return undefined;
  return ws.get(named || null);
}

/** Finding ids starting with what was typed (any case), highest risk first. */
export function completeFindingId(ctx: ToolContext<Workspace>, partial: string): string[] {
  const dataset = contextDataset(ctx);
  if (!dataset) return [];
  const prefix = partial.trim().toLowerCase();
  // The risk order is cached per dataset version, so a keystroke does not sort every finding.
  return findingsSortedBy(dataset, 'risk')
    .filter((f) => f.id.toLowerCase().startsWith(prefix))
    .map((f) => f.id);
}

/** Severity names starting with what was typed (upper-cased), in severity order. */
export function completeSeverity(_ctx: ToolContext<Workspace>, partial: string): string[] {
  const prefix = partial.trim().toUpperCase();
  return SEVERITIES.filter((s) => s.startsWith(prefix));
}
