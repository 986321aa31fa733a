import type { ToolContext } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';

/** Loaded dataset names starting with what was typed (case-insensitive), in load order. */
export function completeDatasetName(ctx: ToolContext<Workspace>, partial: string): string[] {
  const prefix = partial.trim().toLowerCase();
  return ctx.app.names().filter((n) => n.toLowerCase().startsWith(prefix));
}
