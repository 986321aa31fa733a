import type { CallInfo, CallResult, NextFn, RefusedCall } from './types.js';

/**
 * A middleware that works for a layer of any application type. The built-ins never look at
 * `ctx.app`, so they are typed this way: `Middleware<TApp>` is invariant in `TApp`, and a
 * `Middleware<unknown>` could not be given to a `Layer<Workspace>`.
 */
export type AppAgnosticMiddleware = (<TApp>(
  info: CallInfo<TApp>,
  next: NextFn<TApp>,
) => Promise<CallResult>) & {
  /** See `Middleware.refused`. */
  readonly refused?: (call: RefusedCall) => void;
};
