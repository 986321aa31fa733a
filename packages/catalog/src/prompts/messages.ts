import {
  AccessDeniedError,
  type AnySpec,
  type EmbeddedResource,
  type PromptMessage,
  structuredText,
  type ToolContext,
  userMessage,
} from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';

export const CONTEXT_HEADING = 'Context for this task (JSON):';

export const NO_DATA_TEXT =
  'No cloudg dataset is loaded yet. Call `workspace_status` first, then load data with ' +
  '`load_dataset(path=...)` (an inventory-map.json, findings.json or scanner report inside an allowed ' +
  'directory) or collect it with `map_inventory`, and run this prompt again.';

/** How a context message's text is built around its JSON. */
const CONTEXT_RULE = { prefix: `${CONTEXT_HEADING}\n\`\`\`json\n`, suffix: '\n```' };

/**
 * The JSON context message. Its text is rendered from data the layer can see, so the policy's
 * transforms apply to the values by key (names, accounts, tags), not only to the text.
 */
export function contextMessage(data: Record<string, unknown>): PromptMessage {
  return { role: 'user', content: structuredText(data, CONTEXT_RULE) };
}

/** The registered resource that serves `uri`, static or templated. */
function servingSpec(ctx: ToolContext<Workspace>, uri: string): AnySpec<Workspace> | undefined {
  const registry = ctx.layer.registry;
  return registry.resources.get(uri) ?? registry.findTemplate(uri)?.spec;
}

/**
 * Embed what the caller gets from reading `uri`. The read goes through the layer with the
 * caller's principal (`ctx.embedResource`), so the policy's access decision, rate limit,
 * decision log, the middleware and the output pipeline apply to it exactly as to a
 * `resources/read`, and the embedded copy is the one that read returns, transformed once.
 * Nothing is embedded when no registered resource serves the URI or the caller may not read it
 * (hidden or denied): a prompt never shows what a read would refuse.
 */
export async function embed(ctx: ToolContext<Workspace>, uri: string): Promise<PromptMessage[]> {
  const spec = servingSpec(ctx, uri);
  if (!spec || !ctx.layer.isVisible(spec, ctx.principal)) return [];
  let blocks: EmbeddedResource[];
  try {
    blocks = await ctx.embedResource(uri);
  } catch (error) {
    if (error instanceof AccessDeniedError) return [];
    throw error;
  }
  return blocks.map((content) => ({ role: 'user', content }));
}

export function taskMessage(text: string): PromptMessage {
  return userMessage(text);
}
