/**
 * `ConcurrencyLimitMiddleware`: at most `limit` calls of the chosen kinds run at once (and at
 * most `perPrincipal` per principal id); the rest wait in a FIFO queue for up to `queueTimeout`.
 */
import { type CallKind, NEVER_ABORTED } from '../context.js';
import { cancellationError, RateLimitedError } from '../errors.js';
import { LayerConfigError } from '../layer/options.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import type { CallInfo, CallResult, NextFn } from './types.js';

export const SERVER_BUSY_MESSAGE = 'Server busy: too many concurrent MCP calls';

export interface ConcurrencyLimitOptions {
  /** Calls running at once. Default 8. */
  limit?: number;
  /** Calls running at once for one principal id. Default: no per-principal limit. */
  perPrincipal?: number;
  /** Seconds a call may wait for a slot; `null` waits forever. Default 30. */
  queueTimeout?: number | null;
  /** Kinds that take a slot. Default `['tool']`. Completions count when this has `resource` or `completion`. */
  kinds?: Iterable<CallKind>;
}

interface Waiter {
  principal: string;
  grant: () => void;
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new LayerConfigError(`${what} must be a positive integer`, what);
  return value;
}

export class ConcurrencyLimitMiddleware {
  /** Pass this to the layer (`middleware: [limiter.middleware]` or `layer.use(limiter.middleware)`). */
  readonly middleware: AppAgnosticMiddleware;
  readonly limit: number;
  readonly perPrincipal: number | undefined;
  readonly queueTimeout: number | null;
  readonly kinds: ReadonlySet<CallKind>;
  private running = 0;
  private readonly byPrincipal = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(options: ConcurrencyLimitOptions = {}) {
    this.limit = positiveInteger(options.limit ?? 8, 'limit');
    this.perPrincipal =
      options.perPrincipal === undefined ? undefined : positiveInteger(options.perPrincipal, 'perPrincipal');
    const timeout = options.queueTimeout === undefined ? 30 : options.queueTimeout;
    if (timeout !== null && !(timeout >= 0))
      throw new LayerConfigError('queueTimeout must be null or 0 or more seconds', 'queueTimeout');
    this.queueTimeout = timeout;
    this.kinds = new Set(options.kinds ?? ['tool']);
    this.middleware = (info, next) => this.handle(info, next);
  }

  /** Calls holding a slot now. */
  get inFlight(): number {
    return this.running;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.queue.length;
  }

  private counts(kind: CallKind): boolean {
    if (this.kinds.has(kind)) return true;
    return kind === 'completion' && this.kinds.has('resource');
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    if (!this.counts(info.kind)) return next(info);
    const principal = info.principal.id;
    await this.acquire(principal, info.context.signal);
    try {
      return await next(info);
    } finally {
      this.release(principal);
    }
  }

  private canRun(principal: string): boolean {
    if (this.running >= this.limit) return false;
    return this.perPrincipal === undefined || (this.byPrincipal.get(principal) ?? 0) < this.perPrincipal;
  }

  private take(principal: string): void {
    this.running += 1;
    this.byPrincipal.set(principal, (this.byPrincipal.get(principal) ?? 0) + 1);
  }

  /**
   * Take a slot now or queue for one. Every release hands free slots to queued calls at once,
   * so when a new call finds a slot free no earlier waiter could have used it: FIFO holds.
   */
  private acquire(principal: string, signal: AbortSignal): Promise<void> {
    if (this.canRun(principal)) {
      this.take(principal);
      return Promise.resolve();
    }
    if (signal.aborted) return Promise.reject(cancellationError(signal.reason));
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        reject(cancellationError(signal.reason));
      };
      const waiter: Waiter = {
        principal,
        grant: () => {
          leave();
          this.take(principal);
          resolve();
        },
      };
      this.queue.push(waiter);
      // The shared never-aborting signal would collect one listener per queued call otherwise.
      if (signal !== NEVER_ABORTED) signal.addEventListener('abort', onAbort, { once: true });
      if (this.queueTimeout !== null) {
        timer = setTimeout(() => {
          leave();
          reject(
            new RateLimitedError(SERVER_BUSY_MESSAGE, {
              data: {
                limit: this.limit,
                per_principal: this.perPrincipal ?? null,
                queue_timeout: this.queueTimeout,
              },
            }),
          );
        }, this.queueTimeout * 1000);
      }
    });
  }

  private release(principal: string): void {
    this.running -= 1;
    const left = (this.byPrincipal.get(principal) ?? 1) - 1;
    if (left > 0) this.byPrincipal.set(principal, left);
    else this.byPrincipal.delete(principal);
    // First come, first served among the waiters that can run; a waiter held back only by its
    // own per-principal limit does not block others behind it.
    for (let i = 0; i < this.queue.length && this.running < this.limit; ) {
      const waiter = this.queue[i]!;
      if (this.canRun(waiter.principal)) waiter.grant();
      else i += 1;
    }
  }
}
