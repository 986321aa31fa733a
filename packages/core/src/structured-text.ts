/**
 * Text rendered from data. A prompt or tool that shows JSON inside a sentence ("Context:" and a
 * fenced block) cannot be redacted reliably as a plain string: detectors that work by key (names,
 * account ids, tag values) only see keys in the data itself. A block built here carries its data
 * and a render rule in `_meta`; the layer runs the output pipeline over the data, renders the text
 * again from the result, and removes both keys before anything reaches the wire.
 */
import type { EmbeddedResource, TextContent } from './content.js';
import { type JsonObject, type JsonValue, toJsonable } from './json.js';
import { META_PREFIX } from './meta.js';

export const DATA_META_KEY = `${META_PREFIX}data`;
export const RENDER_META_KEY = `${META_PREFIX}render`;

/**
 * How the text is built from the data: `prefix + JSON + suffix`. The JSON is compact unless the
 * layer renders indented JSON (`LayerOptions.prettyJson`), the same as a tool result's text.
 */
export interface RenderRule {
  prefix?: string;
  suffix?: string;
}

function render(data: JsonValue, rule: RenderRule, pretty = false): string {
  const json = pretty ? JSON.stringify(data, null, 2) : JSON.stringify(data);
  return `${rule.prefix ?? ''}${json}${rule.suffix ?? ''}`;
}

function ruleOf(value: JsonValue | undefined): RenderRule {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const rule: RenderRule = {};
  if (typeof value.prefix === 'string') rule.prefix = value.prefix;
  if (typeof value.suffix === 'string') rule.suffix = value.suffix;
  return rule;
}

/** A text block whose text is rendered from `data`. */
export function structuredText(data: unknown, rule: RenderRule = {}): TextContent {
  const json = toJsonable(data);
  return {
    type: 'text',
    text: render(json, rule),
    _meta: { [DATA_META_KEY]: json, [RENDER_META_KEY]: { ...rule } as JsonObject },
  };
}

/** An embedded JSON resource whose text is rendered from `data`. */
export function structuredResource(
  uri: string,
  data: unknown,
  mimeType = 'application/json',
): EmbeddedResource {
  const json = toJsonable(data);
  return {
    type: 'resource',
    resource: {
      uri,
      mimeType,
      text: render(json, {}),
      _meta: { [DATA_META_KEY]: json, [RENDER_META_KEY]: {} },
    },
  };
}

/** The data and rule a `_meta` carries, if it carries data. */
export function readStructured(
  meta: JsonObject | undefined,
): { data: JsonValue; rule: RenderRule } | undefined {
  if (!meta || !(DATA_META_KEY in meta)) return undefined;
  return { data: meta[DATA_META_KEY] as JsonValue, rule: ruleOf(meta[RENDER_META_KEY]) };
}

/** Render the text again from (transformed) data; `pretty` indents the JSON by two spaces. */
export function renderStructured(data: JsonValue, rule: RenderRule, pretty = false): string {
  return render(data, rule, pretty);
}

/** `_meta` without the data and render keys; undefined when nothing else is left. */
export function withoutStructuredMeta(meta: JsonObject | undefined): JsonObject | undefined {
  if (!meta || !(DATA_META_KEY in meta || RENDER_META_KEY in meta)) return meta;
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(meta))
    if (key !== DATA_META_KEY && key !== RENDER_META_KEY) rest[key] = value;
  return Object.keys(rest).length > 0 ? rest : undefined;
}
