import {
  embeddedResource,
  type JsonValue,
  type PromptMessage,
  renderJson,
  type TextContent,
  type ToolContext,
  toJsonable,
  userMessage,
} from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';

/**
 * `_meta` keys meant to carry a context message's data and its rendering rule (`context-json`
 * or `json`), so a policy can transform the values by key and render the text again. They are
 * attached only once core's prompt pipeline transforms them: until then the raw data would
 * travel past the policy next to the transformed text.
 */
export const DATA_META_KEY = 'cloudg/data';
export const RENDER_META_KEY = 'cloudg/render';

export const CONTEXT_HEADING = 'Context for this task (JSON):';

export const NO_DATA_TEXT =
  'No cloudg dataset is loaded yet. Call `workspace_status` first, then load data with ' +
  '`load_dataset(path=...)` (an inventory-map.json, findings.json or scanner report inside an allowed ' +
  'directory) or collect it with `map_inventory`, and run this prompt again.';

/** The text of a JSON context message. */
export function renderContext(data: JsonValue): string {
  return `${CONTEXT_HEADING}\n\`\`\`json\n${renderJson(data)}\n\`\`\``;
}

/** The JSON context message, its text rendered from the data. */
export function contextMessage(data: Record<string, unknown>): PromptMessage {
  const content: TextContent = { type: 'text', text: renderContext(toJsonable(data)) };
  return { role: 'user', content };
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
  return {
    role: 'user',
    content: embeddedResource({
      uri,
      mimeType: 'application/json',
      text: renderJson(data),
    }),
  };
}

/** Embed `uri` when a registered resource serves it; undefined otherwise. */
export async function embed(ctx: ToolContext<Workspace>, uri: string): Promise<PromptMessage | undefined> {
  const data = await servedContent(ctx, uri);
  return data === undefined ? undefined : resourceMessage(uri, data);
}

export function taskMessage(text: string): PromptMessage {
  return userMessage(text);
}
