import type { ToolContext } from '@cloudg/core';
import { GRAPH_FORMATS } from '../tools/graph/graph-formats.js';
import type { Workspace } from '../workspace/workspace.js';

/** Graph export formats starting with what was typed (any case), in the catalog's order. */
export function completeGraphFormat(_ctx: ToolContext<Workspace>, partial: string): string[] {
  const prefix = partial.trim().toLowerCase();
  return GRAPH_FORMATS.filter((f) => f.startsWith(prefix));
}
