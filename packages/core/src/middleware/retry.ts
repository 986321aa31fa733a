/**
 * `RetryMiddleware`: tries a read-only, idempotent tool again when it failed in a way that may
 * pass on a second attempt, waiting longer each time.
 *
 * Retrying `timeout` results is safe here: a timeout aborts the handler's signal, so a handler
 * that honours it has stopped before the next attempt starts and retries do not pile up work
 * running in the background. (Handlers that ignore their signal can still overlap.)
 *
 * Unexpected exceptions from a tool handler never reach middleware as exceptions: the layer turns
 * them into `handler_error` results. Add `'handler_error'` to `retryCodes` to retry those.
 */
import { NEVER_ABORTED } from '../context.js';
import { McpLayerError, StringErrorCode } from '../errors.js';
import { LayerConfigError } from '../layer/options.js';
import { MetaKey } from '../meta.js';
import { ToolResult } from '../results.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import type { CallInfo, CallResult, NextFn } from './types.js';

/** Error classes (matched with `instanceof`) or a predicate over the thrown value. */
export type RetryOn =
  | ((error: unknown) => boolean)
  | ReadonlyArray<abstract new (...args: never[]) => unknown>;

export interface RetryOptions {
  /** Further attempts after the first. Default 2. */
  retries?: number;
  /** Seconds before the first retry; doubles each time (0.5, 1, 2, ...). Default 0.5. */
  backoff?: number;
  /** Which thrown errors to retry. Default: network failures and timeouts (see `isTransientError`). */
  retryOn?: RetryOn;
  /** `cloudg/error_code` values of error results to retry. Default `['timeout']`. */
  retryCodes?: Iterable<number | string>;
}

/** `code` values Node gives to connection failures worth another try. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The default `retryOn`: connection failures (by Node error code, also on the `cause` of a
 * `fetch` TypeError) and `TimeoutError`s such as `AbortSignal.timeout` raises. Layer errors
 * (denials, rate limits, bad arguments) are never transient.
 */
export function isTransientError(error: unknown): boolean {
  if (error instanceof McpLayerError) return false;
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    if (name === 'TimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function toPredicate(retryOn: RetryOn | undefined): (error: unknown) => boolean {
  if (retryOn === undefined) return isTransientError;
  if (typeof retryOn === 'function') return retryOn;
  const classes = [...retryOn];
  return (error) => classes.some((cls) => error instanceof cls);
}

/** Wait `ms`, or less if the signal aborts first. Resolves true when the full wait passed. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (signal === NEVER_ABORTED) return new Promise((resolve) => setTimeout(() => resolve(true), ms));
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class RetryMiddleware {
  /** Pass this to the layer (`middleware: [retry.middleware]` or `layer.use(retry.middleware)`). */
  readonly middleware: AppAgnosticMiddleware;
  readonly retries: number;
  readonly backoff: number;
  private readonly retryOn: (error: unknown) => boolean;
  private readonly retryCodes: ReadonlySet<number | string>;

  constructor(options: RetryOptions = {}) {
    this.retries = options.retries ?? 2;
    this.backoff = options.backoff ?? 0.5;
    if (!Number.isInteger(this.retries) || this.retries < 0)
      throw new LayerConfigError('retries must be an integer of 0 or more', 'retries');
    if (!(this.backoff >= 0)) throw new LayerConfigError('backoff must be 0 or more seconds', 'backoff');
    this.retryOn = toPredicate(options.retryOn);
    this.retryCodes = new Set(options.retryCodes ?? [StringErrorCode.Timeout]);
    this.middleware = (info, next) => this.handle(info, next);
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    if (info.spec.kind !== 'tool' || !info.spec.isCacheable || this.retries === 0) return next(info);
    const ctx = info.context;
    // The terminal swaps in a signal that also fires on the tool's deadline; each attempt must
    // start from the caller's own signal, or a timed-out attempt would doom every later one.
    const callerSignal = ctx.signal;
    const linkCount = ctx.links.length;
    for (let attempt = 0; ; attempt++) {
      ctx.bindSignal(() => callerSignal);
      ctx.links.length = linkCount; // links a failed attempt attached are not part of the answer
      let result: CallResult;
      try {
        result = await next(info);
      } catch (error) {
        if (attempt < this.retries && this.retryOn(error) && (await this.wait(attempt, callerSignal)))
          continue;
        throw error;
      }
      if (
        result instanceof ToolResult &&
        result.isError &&
        attempt < this.retries &&
        this.retryCodes.has(result.errorCode ?? '') &&
        (await this.wait(attempt, callerSignal))
      ) {
        continue;
      }
      if (attempt > 0 && result instanceof ToolResult) result.meta[MetaKey.retries] = attempt;
      return result;
    }
  }

  /** Back off before retry number `attempt + 1`; false when the caller cancelled, so we stop. */
  private wait(attempt: number, signal: AbortSignal): Promise<boolean> {
    return sleep(this.backoff * 1000 * 2 ** attempt, signal);
  }
}
