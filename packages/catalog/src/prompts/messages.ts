import {
  type JsonValue,
  type PromptMessage,
  structuredResource,
  structuredText,
  type ToolContext,
  toJsonable,
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

/**
 * The content a resource serves at `uri`, produced by the registered handler itself so the
 * embedded copy and a later `resources/read` agree. Undefined when no resource serves the URI.
 */
export async function servedContent(
  ctx: ToolContext<Workspace>,
  uri: string,
): Promise<JsonValue | undefined> {
  const registry = ctx.layer.registry;
  const fixed = registry.resources.get(uri);
  if (fixed) return toJsonable(await fixed.handler(ctx));
  const template = registry.findTemplate(uri);
  if (!template) return undefined;
  return toJsonable(await template.spec.handler(ctx, template.variables));
}

/** A message embedding the JSON a resource serves. */
export function resourceMessage(uri: string, data: JsonValue): PromptMessage {
  return { role: 'user', content: structuredResource(uri, data) };
}

/** Embed `uri` when a registered resource serves it; undefined otherwise. */
export async function embed(ctx: ToolContext<Workspace>, uri: string): Promise<PromptMessage | undefined> {
  const data = await servedContent(ctx, uri);
  return data === undefined ? undefined : resourceMessage(uri, data);
}

export function taskMessage(text: string): PromptMessage {
  return userMessage(text);
}
