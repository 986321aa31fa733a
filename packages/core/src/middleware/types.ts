import type { Logger } from 'pino';
import type { ResourceContents } from '../content.js';
import type { CallKind, ToolContext } from '../context.js';
import type { Principal } from '../principal.js';
import type { CompletionResult, PromptResult, ToolResult } from '../results.js';
import type { AnySpec } from '../specs/index.js';

/** What each kind of call returns through the chain. */
export interface CallResultByKind {
  tool: ToolResult;
  resource: ResourceContents[];
  prompt: PromptResult;
  completion: CompletionResult;
}
export type CallResult = CallResultByKind[CallKind];

/** What middleware knows about a call. Arguments are as received: pseudonyms not yet reversed. */
export interface CallInfo<TApp = unknown> {
  kind: CallKind;
  /** Tool or prompt name, the URI for resources, the prompt name or template string for completions. */
  name: string;
  spec: AnySpec<TApp>;
  arguments: Record<string, unknown>;
  principal: Principal;
  context: ToolContext<TApp>;
  /** `performance.now()` when the call entered the layer. */
  started: number;
}

export type NextFn<TApp = unknown> = (info: CallInfo<TApp>) => Promise<CallResult>;

/**
 * A request the layer answered without running the middleware chain: an unknown or hidden name,
 * arguments refused before the chain, a completion with nothing to complete.
 */
export interface RefusedCall {
  kind: CallKind;
  /** The name as the caller sent it: a tool or prompt name, or a URI (see `nameIsUri`). */
  name: string;
  /**
   * True when `name` is a URI the caller wrote (a resource read, a completion of a resource
   * template), which may carry asset references and so is data rather than a name.
   */
  nameIsUri: boolean;
  /** The primitive the request resolved to, when it was refused after the lookup. */
  spec?: AnySpec;
  /** Arguments as received. */
  arguments: Record<string, unknown>;
  principal: Principal;
  requestId: string | number | null;
  /** What the caller gets; undefined when the answer is empty rather than an error (completions). */
  error?: unknown;
  /** `performance.now()` when the request entered the layer. */
  started: number;
  /** The layer's logger. */
  logger: Logger;
}

/**
 * `(info, next)`: run code around the rest of the chain, or throw an McpLayerError to refuse.
 * A middleware that accounts for requests (the audit log) may also carry `refused`, which the
 * layer calls for each request it answers without running the chain, so that between the two
 * it sees every request exactly once.
 */
export type Middleware<TApp = unknown> = ((
  info: CallInfo<TApp>,
  next: NextFn<TApp>,
) => Promise<CallResult>) & {
  readonly refused?: (call: RefusedCall) => void;
};

/** Compose middleware around a terminal, outermost first. */
export function composeChain<TApp>(
  middleware: readonly Middleware<TApp>[],
  terminal: NextFn<TApp>,
): NextFn<TApp> {
  let chain = terminal;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const mw = middleware[i]!;
    const next = chain;
    chain = (info) => mw(info, next);
  }
  return chain;
}
