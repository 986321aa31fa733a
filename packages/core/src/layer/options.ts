import type { Logger } from 'pino';
import { McpLayerError } from '../errors.js';
import type { Middleware } from '../middleware/types.js';
import type { IdentifierSource, PolicyPort } from '../policy-port.js';
import { Registry } from '../registry.js';

export interface LayerOptions<TApp> {
  /** Application state handed to every handler as `ctx.app` (the catalog puts its workspace here). */
  app?: TApp;
  /** The policy; `allowAllPolicy` when omitted. */
  policy?: PolicyPort;
  /** Identifiers the application knows by value, handed to the policy's pipelines (see `IdentifierSource`). */
  identifiers?: IdentifierSource;
  /** The primitives to expose. Without filters this object is used as is, so later additions show. */
  registry?: Registry<TApp>;
  /** Filters by category, applied to every kind of primitive. */
  includeCategories?: Iterable<string>;
  excludeCategories?: Iterable<string>;
  /** Filters by internal tool name, applied to tools only. */
  includeTools?: Iterable<string>;
  excludeTools?: Iterable<string>;
  /** Prepended to tool and prompt names: at most 64 of `A-Za-z0-9_.-`. */
  prefix?: string;
  /** Outermost first. */
  middleware?: Middleware<TApp>[];
  /** Seconds; 0 or null disables. A tool's own `timeoutSeconds` wins. Default 300. */
  defaultTimeout?: number | null;
  /** Cap on the text block of one tool result. Default 200,000. */
  maxOutputChars?: number;
  /**
   * Indent the JSON the layer renders as text (a tool result's text block, resource contents built
   * from a value, text rendered from data) by two spaces. Default false: compact JSON, which costs
   * a model about a third fewer tokens. `structuredContent` is the same either way.
   */
  prettyJson?: boolean;
  name?: string;
  version?: string;
  instructions?: string;
  logger?: Logger;
}

export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_MAX_OUTPUT_CHARS = 200_000;
export const PREFIX_PATTERN = /^[A-Za-z0-9_.-]{0,64}$/;
/** Domain-free on purpose: an application (the catalog, say) describes its own tools. */
export const DEFAULT_INSTRUCTIONS =
  'Tools, resources and prompts behind a governing policy. Identifiers may be pseudonyms; pass them back unchanged.';

/**
 * Thrown for layer or middleware options that cannot work (a bad prefix, a negative timeout):
 * code `invalid_layer_options`, `data.option` names the option when one is to blame.
 */
export class LayerConfigError extends McpLayerError {
  override readonly code = 'invalid_layer_options';
  declare readonly data: { option?: string };

  constructor(message: string, option?: string) {
    super(message, { data: option === undefined ? {} : { option } });
  }
}

export function validatePrefix(prefix: string): string {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new LayerConfigError('Invalid prefix: use at most 64 of A-Z a-z 0-9 _ . -', 'prefix');
  }
  return prefix;
}

/** A new registry holding what passes the filters, or the registry itself when there are none. */
export function filterRegistry<TApp>(registry: Registry<TApp>, options: LayerOptions<TApp>): Registry<TApp> {
  const set = (values: Iterable<string> | undefined) => (values === undefined ? undefined : new Set(values));
  const incCat = set(options.includeCategories);
  const excCat = set(options.excludeCategories);
  const incTool = set(options.includeTools);
  const excTool = set(options.excludeTools);
  if (!incCat && !excCat && !incTool && !excTool) return registry;
  const filtered = new Registry<TApp>();
  for (const spec of registry.all()) {
    if (incCat && !incCat.has(spec.category)) continue;
    if (excCat?.has(spec.category)) continue;
    if (spec.kind === 'tool') {
      if (incTool && !incTool.has(spec.name)) continue;
      if (excTool?.has(spec.name)) continue;
    }
    filtered.add(spec);
  }
  return filtered;
}
