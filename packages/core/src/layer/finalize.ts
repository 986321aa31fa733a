/** Turning what a tool handler returned into the result the caller receives. */
import type { Content, ResourceLink } from '../content.js';
import { isMcpLayerError } from '../errors.js';
import { isPlainObject, type JsonObject, type JsonValue, toJsonable } from '../json.js';
import { MetaKey } from '../meta.js';
import type { TransformReport } from '../policy-port.js';
import { ToolResult } from '../results.js';
import { readStructured, renderStructured, withoutStructuredMeta } from '../structured-text.js';
import { wasReadThroughLayer } from './embedded-read.js';
import { applyPipeline, errorForCaller, isActive, mergeReports, type TransformTarget } from './transform.js';

export const TRUNCATION_MARKER = '... [truncated by cloudg mcp layer]';

export interface FinalizeOptions {
  maxOutputChars: number;
  started: number;
  /** Indent the JSON of the text block (`LayerOptions.prettyJson`). Default compact. */
  prettyJson?: boolean;
}

/**
 * The JSON of the text block clients that ignore `structuredContent` read. Compact by default:
 * a model pays for every indentation space as tokens, about a third of an indented result's, and
 * reads compact JSON as well. `pretty` indents by two spaces.
 */
export function renderJson(value: JsonValue, pretty = false): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** What a pipeline gave back for a text: the string itself, or JSON when it made a value of it. */
export function pipelineText(value: unknown, pretty = false): string {
  return typeof value === 'string' ? value : renderJson(toJsonable(value), pretty);
}

/** Real → shown pairs that links of one result revealed, so every link of it can follow them. */
type Replacements = Array<[string, string]>;

async function transformLink(
  target: TransformTarget,
  link: ResourceLink,
  report: TransformReport,
  collected?: Replacements,
): Promise<ResourceLink> {
  const fields: Record<string, string> = { uri: link.uri, name: link.name };
  if (link.title !== undefined) fields.title = link.title;
  if (link.description !== undefined) fields.description = link.description;
  const run = await applyPipeline(target, fields);
  mergeReports(report, run.report);
  const out = (isPlainObject(run.value) ? run.value : fields) as Record<string, unknown>;
  const next: ResourceLink = { ...link };
  for (const key of ['uri', 'name', 'title', 'description'] as const) {
    const value = out[key];
    if (typeof value === 'string') next[key] = value;
  }
  // A link's name, title and description describe what its URI names ("bastion neighbors",
  // "EC2 bastion"): a URI segment or a name the policy replaced is that same reference inside
  // them, however plain a word it is.
  const replaced = replacedSegments(link.uri, next.uri);
  if (next.name !== link.name && link.name !== '') replaced.push([link.name, next.name]);
  collected?.push(...replaced);
  return followReplacements(next, replaced);
}

/** A link whose name, title and description have each real word of `pairs` replaced. */
function followReplacements(link: ResourceLink, pairs: Replacements): ResourceLink {
  const next = { ...link };
  for (const [real, shown] of pairs) {
    next.name = replaceWord(next.name, real, shown);
    if (next.title !== undefined) next.title = replaceWord(next.title, real, shown);
    if (next.description !== undefined) next.description = replaceWord(next.description, real, shown);
  }
  return next;
}

/** `[before, after]` for each path segment a transform changed in a URI that kept its shape. */
function replacedSegments(before: string, after: string): Array<[string, string]> {
  if (before === after) return [];
  const a = before.split('/');
  const b = after.split('/');
  if (a.length !== b.length) return [];
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < a.length; i++) {
    const real = safeDecode(a[i]!);
    const shown = safeDecode(b[i]!);
    if (real !== shown && real !== '') pairs.push([real, shown]);
  }
  return pairs;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  );
}

/** `text` with every occurrence of `word` that stands between non-word characters replaced by `by`. */
function replaceWord(text: string, word: string, by: string): string {
  let out = '';
  let last = 0;
  let at = text.indexOf(word);
  while (at !== -1) {
    const end = at + word.length;
    const bounded =
      (at === 0 || !isWordChar(text.charCodeAt(at - 1))) &&
      (end === text.length || !isWordChar(text.charCodeAt(end)));
    if (bounded) {
      out += text.slice(last, at) + by;
      last = end;
    }
    at = text.indexOf(word, bounded ? end : at + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}

async function transformText(
  target: TransformTarget,
  text: string,
  meta: JsonObject | undefined,
  report: TransformReport,
  pretty: boolean,
): Promise<string> {
  const structured = readStructured(meta);
  // Text rendered from data is transformed through the data, so key-based detectors see keys.
  const run = await applyPipeline(target, structured ? structured.data : text);
  mergeReports(report, run.report);
  if (structured) return renderStructured(toJsonable(run.value), structured.rule, pretty);
  return pipelineText(run.value, pretty);
}

/**
 * A block whose text was rendered from data, rendered again in the layer's JSON style. Blocks are
 * built compact; only a layer that indents needs to render them again.
 */
function restyle(block: Content, pretty: boolean): Content {
  if (!pretty) return block;
  if (block.type === 'text') {
    const structured = readStructured(block._meta);
    return structured ? { ...block, text: renderStructured(structured.data, structured.rule, true) } : block;
  }
  if (block.type === 'resource' && 'text' in block.resource) {
    const structured = readStructured(block.resource._meta);
    if (!structured) return block;
    const text = renderStructured(structured.data, structured.rule, true);
    return { ...block, resource: { ...block.resource, text } };
  }
  return block;
}

/** A copy of `holder` without the data and render keys in its `_meta`, or itself when it has none. */
function withoutStructured<T extends { _meta?: JsonObject }>(holder: T): T {
  const meta = withoutStructuredMeta(holder._meta);
  if (meta === holder._meta) return holder;
  const out = { ...holder };
  if (meta) out._meta = meta;
  else delete out._meta;
  return out;
}

/** Drop the data and render keys of a structured block (an embedded resource's): they never reach the wire. */
function stripStructured(block: Content): Content {
  if (block.type !== 'resource') return withoutStructured(block);
  const resource = withoutStructured(block.resource);
  return resource === block.resource ? block : { ...block, resource };
}

async function transformBlock(
  target: TransformTarget,
  block: Content,
  report: TransformReport,
  pretty: boolean,
  collected?: Replacements,
): Promise<Content> {
  if (block.type === 'text') {
    return { ...block, text: await transformText(target, block.text, block._meta, report, pretty) };
  }
  if (block.type === 'resource_link') return transformLink(target, block, report, collected);
  if (block.type === 'resource') {
    // The URI names what is embedded (an asset reference, a dataset), so it is transformed too.
    const run = await applyPipeline(target, { uri: block.resource.uri });
    mergeReports(report, run.report);
    const uri =
      isPlainObject(run.value) && typeof run.value.uri === 'string' ? run.value.uri : block.resource.uri;
    if (!('text' in block.resource)) return { ...block, resource: { ...block.resource, uri } };
    const text = await transformText(target, block.resource.text, block.resource._meta, report, pretty);
    return { ...block, resource: { ...block.resource, uri, text } };
  }
  // Images, audio and blobs are passed through: the detectors work on text.
  return block;
}

/**
 * Transform every block of a content list (prompt messages use this too). `pretty` is the layer's
 * JSON style, for text rendered from data.
 */
export async function transformContent(
  target: TransformTarget,
  blocks: Content[],
  report: TransformReport,
  pretty = false,
  collected?: Replacements,
): Promise<Content[]> {
  const out: Content[] = [];
  for (const block of blocks) {
    // A resource the handler read through the layer (ctx.embedResource) already passed this
    // caller's pipeline; a second run would pseudonymise pseudonyms and fence fenced text.
    if (wasReadThroughLayer(block)) {
      out.push(block);
      continue;
    }
    const transformed = isActive(target.pipeline)
      ? await transformBlock(target, block, report, pretty, collected)
      : restyle(block, pretty);
    out.push(stripStructured(transformed));
  }
  return out;
}

/**
 * An error about to end a `resources/read` or `prompts/get` as a JSON-RPC error, which has one
 * message and data but no content blocks. Its message and data pass the caller's output pipeline
 * (`errorForCaller`), and so do its hint blocks, the ones a tool's error result shows after its
 * message (close matches, candidates, loaded datasets): their text follows the message, so the
 * model reads them even from a client that drops `data`, and a pseudonymising policy
 * pseudonymises them there as in a tool result. The hints are used up, so an error that passes
 * here twice (a resource a prompt embeds) carries them once.
 */
export async function protocolErrorForCaller(
  error: unknown,
  target: TransformTarget,
  pretty = false,
): Promise<unknown> {
  const out = await errorForCaller(error, target);
  if (!isMcpLayerError(out) || out.hints.length === 0) return out;
  const blocks = await transformContent(target, [...out.hints], {}, pretty);
  const texts = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  if (texts.length > 0) out.message = [out.message, ...texts].join('\n');
  Object.defineProperty(out, 'hints', { value: [], enumerable: true, configurable: true });
  return out;
}

/**
 * Steps 10 to 13 of the lifecycle: normalise the value, run the output pipeline, render the
 * text block under the size cap, append the context's links and stamp the duration.
 */
export async function finalizeToolResult(
  raw: unknown,
  links: readonly ResourceLink[],
  target: TransformTarget,
  options: FinalizeOptions,
): Promise<ToolResult> {
  const report: TransformReport = {};
  const active = isActive(target.pipeline);
  const pretty = options.prettyJson ?? false;
  const replacements: Replacements = [];
  let result: ToolResult;
  if (raw instanceof ToolResult) {
    result = raw;
    result.content = await transformContent(target, result.content, report, pretty, replacements);
    if (active) {
      if (result.structured !== undefined) {
        const run = await applyPipeline(target, result.structured);
        mergeReports(report, run.report);
        result.structured = asObject(toJsonable(run.value));
      }
      if (Object.keys(result.meta).length > 0) {
        const run = await applyPipeline(target, result.meta);
        mergeReports(report, run.report);
        result.meta = asObject(toJsonable(run.value));
      }
    }
  } else {
    let structured = asObject(toJsonable(raw));
    if (active) {
      const run = await applyPipeline(target, structured);
      mergeReports(report, run.report);
      structured = asObject(toJsonable(run.value));
    }
    let text = renderJson(structured, pretty);
    if (text.length > options.maxOutputChars) {
      report.truncated_chars = text.length - options.maxOutputChars;
      text = text.slice(0, options.maxOutputChars) + TRUNCATION_MARKER;
    }
    result = new ToolResult({ content: [{ type: 'text', text }], structured });
  }
  for (const link of links) {
    result.content.push(active ? await transformLink(target, link, report, replacements) : link);
  }
  // One link's URI can reveal what another's name says ("prod neighbors" beside a link to the
  // account whose id differs from its name): every link follows every replacement of the result.
  if (replacements.length > 0) {
    result.content = result.content.map((block) =>
      block.type === 'resource_link' ? followReplacements(block, replacements) : block,
    );
  }
  if (Object.keys(report).length > 0) {
    const existing = result.meta[MetaKey.transforms];
    result.meta[MetaKey.transforms] = isPlainObject(existing)
      ? mergeReports(existing as TransformReport, report)
      : report;
  }
  result.meta[MetaKey.durationMs] = Math.round(performance.now() - options.started);
  return result;
}

/** A structured result must be an object: anything else is wrapped as `{"result": value}`. */
function asObject(value: JsonValue): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { result: value };
}

/**
 * An error result whose message, data and hint blocks went through the output pipeline. Hints
 * follow the message as content blocks (text rendered from data is transformed by key).
 */
export async function errorResult(
  message: string,
  code: number | string,
  data: unknown,
  target: TransformTarget,
  options: { hints?: readonly Content[]; pretty?: boolean } = {},
): Promise<ToolResult> {
  const msg = await applyPipeline(target, message);
  const meta: Record<string, JsonValue> = { [MetaKey.errorCode]: code };
  // The reports of these two runs are not kept: error results carry no `cloudg/transforms`.
  if (data !== undefined && data !== null) {
    const run = await applyPipeline(target, toJsonable(data));
    meta[MetaKey.errorData] = toJsonable(run.value);
  }
  const text = typeof msg.value === 'string' ? msg.value : message;
  const hints = options.hints?.length
    ? await transformContent(target, [...options.hints], {}, options.pretty ?? false)
    : [];
  return ToolResult.error(text, meta, hints);
}
