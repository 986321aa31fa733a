/** `resources/read`: lookup, middleware, policy, input pipeline over template variables, handler, output pipeline. */
import { isTextResourceContents, type ResourceContents } from '../content.js';
import { isMcpLayerError, McpLayerError } from '../errors.js';
import { isPlainObject, toJsonable } from '../json.js';
import { MetaKey } from '../meta.js';
import { type CallInfo, composeChain } from '../middleware/types.js';
import type { TransformReport } from '../policy-port.js';
import type { AnySpec, ResourceSpec, ResourceTemplateSpec } from '../specs/index.js';
import { pipelineText, protocolErrorForCaller, renderJson } from './finalize.js';
import type { CallOptions, Layer } from './layer.js';
import {
  applyPipeline,
  isActive,
  mergeReports,
  pipelineTarget,
  restoreInput,
  type TransformTarget,
} from './transform.js';

export async function runReadResource<TApp>(
  layer: Layer<TApp>,
  uri: string,
  options: CallOptions<TApp>,
): Promise<ResourceContents[]> {
  const principal = layer.callerOf(options);
  const { spec, variables } = layer.admit(
    { kind: 'resource', name: uri, arguments: {}, principal, options },
    () => layer.resolveResource(uri, principal),
  );
  const info = layer.startCall('resource', uri, spec, variables, principal, options);
  const chain = composeChain(layer.middleware, (i) => resourceTerminal(layer, i, uri));
  try {
    return (await chain(info)) as ResourceContents[];
  } catch (error) {
    throw await protocolErrorForCaller(
      error,
      pipelineTarget(layer, spec as AnySpec, principal, 'resource', 'output', info.context),
      layer.prettyJson,
    );
  }
}

async function resourceTerminal<TApp>(
  layer: Layer<TApp>,
  info: CallInfo<TApp>,
  uri: string,
): Promise<ResourceContents[]> {
  const spec = info.spec as ResourceSpec<TApp> | ResourceTemplateSpec<TApp>;
  const { principal } = info;
  const anySpec = spec as AnySpec;
  await layer.policy.checkCall(anySpec, principal, {
    kind: 'resource',
    name: uri,
    arguments: info.arguments,
  });
  const target = (direction: 'input' | 'output'): TransformTarget =>
    pipelineTarget(layer, anySpec, principal, 'resource', direction, info.context);

  let raw: unknown;
  // The URI of what is read, in real values: the caller's URI with any pseudonyms it carried
  // restored, so the output pipeline turns it back into the caller's pseudonyms, not new ones.
  let realUri = uri;
  try {
    if (spec.kind === 'template') {
      const variables = await restoreInput(layer.policy, target('input'), info.arguments);
      const vars = isPlainObject(variables)
        ? (variables as Record<string, string>)
        : (info.arguments as Record<string, string>);
      if (vars !== info.arguments && spec.template.variables.some((v) => vars[v] !== info.arguments[v])) {
        realUri = spec.template.expand(vars);
      }
      raw = await spec.handler(info.context, vars);
    } else {
      raw = await spec.handler(info.context);
    }
  } catch (error) {
    if (isMcpLayerError(error)) throw error;
    layer.logger.error({ err: error, uri }, `Resource ${uri} failed`);
    throw new McpLayerError('Internal error', { cause: error });
  }
  return normalizeContents(raw, realUri, spec.mimeType, target('output'), layer.prettyJson);
}

async function transformUri(target: TransformTarget, uri: string): Promise<string> {
  if (!isActive(target.pipeline)) return uri;
  const run = await applyPipeline(target, { uri });
  return isPlainObject(run.value) && typeof run.value.uri === 'string' ? run.value.uri : uri;
}

function looksLikeContents(value: unknown): value is ResourceContents[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (item) =>
        isPlainObject(item) &&
        typeof item.uri === 'string' &&
        (typeof item.text === 'string' || typeof item.blob === 'string'),
    )
  );
}

/**
 * Strings become text, bytes a base64 blob, content lists pass through, anything else JSON
 * (indented when the layer's `prettyJson` is set).
 */
async function normalizeContents(
  raw: unknown,
  requested: string,
  mimeType: string,
  target: TransformTarget,
  pretty: boolean,
): Promise<ResourceContents[]> {
  // The URI read names what it holds (an asset, a dataset): it goes back transformed, like the
  // URI of an embedded resource, even though the caller sent it.
  const uri = await transformUri(target, requested);
  if (raw instanceof Uint8Array) {
    return [
      { uri, mimeType, blob: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') },
    ];
  }
  if (typeof raw === 'string') {
    const run = await applyPipeline(target, raw);
    return [{ uri, mimeType, text: pipelineText(run.value, pretty) }];
  }
  if (looksLikeContents(raw)) {
    if (!isActive(target.pipeline)) return raw;
    const out: ResourceContents[] = [];
    for (const item of raw) {
      if (!isTextResourceContents(item)) {
        out.push(item);
        continue;
      }
      const run = await applyPipeline(target, item.text);
      out.push({ ...item, uri: await transformUri(target, item.uri), text: pipelineText(run.value, pretty) });
    }
    return out;
  }
  const run = await applyPipeline(target, toJsonable(raw));
  const contents: ResourceContents = { uri, mimeType, text: renderJson(toJsonable(run.value), pretty) };
  const report: TransformReport = mergeReports({}, run.report);
  if (Object.keys(report).length > 0) contents._meta = { [MetaKey.transforms]: report };
  return [contents];
}
