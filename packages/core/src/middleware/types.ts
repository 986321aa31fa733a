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

/** `(info, next)`: run code around the rest of the chain, or throw an McpLayerError to refuse. */
export type Middleware<TApp = unknown> = (info: CallInfo<TApp>, next: NextFn<TApp>) => Promise<CallResult>;

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
