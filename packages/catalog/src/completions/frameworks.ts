import type { ToolContext } from '@cloudg/core';
import { datasetFrameworks } from '../compliance/framework-match.js';
import { workspaceRulesets } from '../compliance/workspace-rulesets.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * Framework names containing what was typed (any case): those of the dataset named in the
 * request's context arguments (else the active one), from its compliance results and finding
 * tags; the ruleset frameworks when the dataset names none, or when nothing is loaded.
 */
export async function completeFramework(ctx: ToolContext<Workspace>, partial: string): Promise<string[]> {
  const args = ctx.meta.arguments as Record<string, unknown> | undefined;
  const named = typeof args?.dataset === 'string' ? args.dataset.trim() : '';
  const ws = ctx.app;
  const loaded = named ? ws.has(named) : ws.activeName !== null;
  let names = loaded ? datasetFrameworks(ws.get(named || null)) : [];
  if (names.length === 0) names = (await workspaceRulesets(ws)).frameworkNames;
  const needle = partial.trim().toLowerCase();
  return names.filter((n) => n.toLowerCase().includes(needle));
}
