import type { CloudgConfig } from '../config/schema.js';
import { type LiveClock, systemClock } from './clock.js';
import { LIVE_PROVIDERS, type LiveProvider } from './engine.js';
import type { LedgerAdmission, LiveGuardLedger } from './guard-ledger.js';
import { LiveOperationRefusedError, type LiveRefusalData } from './refusal.js';

/** The guard's limits, from the config's `ratelimit` section (`guardSettings`). */
export interface LiveGuardSettings {
  cooldownSeconds: number;
  providerCooldowns: Partial<Record<LiveProvider, number>>;
  maxConcurrentPerScope: number;
  maxConcurrentTotal: number;
  /** 0 = no caller quota. */
  callerMaxOperations: number;
  callerWindowSeconds: number;
  operationTimeoutSeconds: number;
}

export function guardSettings(config: CloudgConfig): LiveGuardSettings {
  const r = config.ratelimit;
  const providerCooldowns: Partial<Record<LiveProvider, number>> = {};
  for (const p of LIVE_PROVIDERS) {
    const own = r[p].live_cooldown_seconds;
    if (own !== undefined) providerCooldowns[p] = own;
  }
  return {
    cooldownSeconds: r.live_cooldown_seconds,
    providerCooldowns,
    maxConcurrentPerScope: r.live_max_concurrent,
    maxConcurrentTotal: r.live_max_concurrent_total,
    callerMaxOperations: r.live_caller_max_operations,
    callerWindowSeconds: r.live_caller_window_seconds,
    operationTimeoutSeconds: r.live_operation_timeout_seconds,
  };
}

/** One live call as the guard sees it. */
export interface LiveOperationRequest {
  /** The tool (`map_inventory`...). */
  operation: string;
  providers: readonly LiveProvider[];
  /** Scopes claimed (cooldowns, caps); empty for offline scanners, which only share runs. */
  scopes: readonly string[];
  /** Canonical form of the collection arguments (regions, services...; not the dataset name). */
  key: string;
  /** The principal's id, for the quota. */
  caller: string;
  /** Skip the cooldown (the caller's role was checked before). */
  force: boolean;
  /** The caller's own cancellation. */
  signal: AbortSignal;
}

export interface LiveGuardStatus {
  in_flight: number;
  active_total: number;
  active_by_scope: Record<string, number>;
  cooling_down: Record<string, number>;
  started: number;
  joined: number;
  cooldown_seconds: number;
  provider_cooldowns: Partial<Record<LiveProvider, number>>;
  max_concurrent_per_scope: number;
  max_concurrent_total: number;
  caller_max_operations: number;
  /**
   * With a guard shared by replicas (issue 20): every replica's flights and cooldowns; the fields
   * above stay this replica's. The ledger holds scopes as keyed digests, so a scope is named only
   * when this replica's config reaches it; the rest are counted.
   */
  across_replicas?: {
    active_total: number;
    active_by_scope: Record<string, number>;
    other_scopes_active: number;
    cooling_down: Record<string, number>;
    other_scopes_cooling_down: number;
  };
}

interface Flight {
  id: string;
  scopes: readonly string[];
  controller: AbortController;
  promise: Promise<unknown>;
  /** Rejects when the operation is aborted (timeout, every caller gone), even if the work ignores it. */
  stopped: Promise<never>;
  callers: number;
  cancelTimeout: () => void;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * The live operation guard (MCP_TOOLS.md "Live operation guard"): single-flight joins,
 * per-scope and total caps, cooldowns per provider, a caller quota and an operation timeout.
 * Messages name providers, not scopes: a scope can hold an account id, which travels only in
 * `data.scopes` (the reference printed the scopes).
 */
export class LiveOperationGuard {
  readonly settings: LiveGuardSettings;
  readonly #clock: LiveClock;
  readonly #flights = new Map<string, Flight>();
  /** Scope -> when its last operation ended (clock ms). */
  readonly #finished = new Map<string, number>();
  /** Caller -> start times inside the quota window. */
  readonly #starts = new Map<string, number[]>();
  #started = 0;
  #joined = 0;

  readonly #ledger: LiveGuardLedger | undefined;
  readonly #leaseMs: number;

  /**
   * With a `ledger` (replicas sharing the guard), admissions are decided there, across replicas;
   * this guard still runs its own flights. `leaseMs`: how long a flight's claim outlives its
   * last renewal, so a replica that dies frees its scopes (default 30 s; renewed every third).
   */
  constructor(
    settings: LiveGuardSettings,
    clock: LiveClock = systemClock,
    shared?: { ledger: LiveGuardLedger; leaseMs?: number },
  ) {
    this.settings = settings;
    this.#clock = clock;
    this.#ledger = shared?.ledger;
    this.#leaseMs = shared?.leaseMs ?? 30_000;
  }

  static fromConfig(
    config: CloudgConfig,
    clock?: LiveClock,
    shared?: { ledger: LiveGuardLedger; leaseMs?: number },
  ): LiveOperationGuard {
    return new LiveOperationGuard(guardSettings(config), clock, shared);
  }

  /**
   * Run `work` under the guard, or join an identical operation already running. Rejects with
   * LiveOperationRefusedError when refused or timed out, and with the caller's abort reason
   * when the caller cancels (the operation goes on while another caller waits for it).
   */
  async run<T>(
    request: LiveOperationRequest,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<{ value: T; joined: boolean }> {
    request.signal.throwIfAborted();
    const id = flightId(request);
    const running = this.#flights.get(id);
    if (running) {
      running.callers += 1;
      this.#joined += 1;
      return { value: (await this.#await(running, request.signal)) as T, joined: true };
    }
    if (this.#ledger) return this.#runShared(this.#ledger, id, request, work);
    this.#admit(request);
    const flight = this.#start(id, request, work);
    return { value: (await this.#await(flight, request.signal)) as T, joined: false };
  }

  /** `run` with the admission decided by the shared ledger. */
  async #runShared<T>(
    ledger: LiveGuardLedger,
    id: string,
    request: LiveOperationRequest,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<{ value: T; joined: boolean }> {
    const s = this.settings;
    const admission = await ledger.admit({
      flight: id,
      scopes: request.scopes,
      cooldownMs: request.scopes.map((scope) => this.#cooldownFor(scope) * 1000),
      caller: request.caller,
      force: request.force,
      now: this.#clock.now(),
      maxPerScope: s.maxConcurrentPerScope,
      maxTotal: s.maxConcurrentTotal,
      callerMax: s.callerMaxOperations,
      callerWindowMs: s.callerWindowSeconds * 1000,
      leaseMs: this.#leaseMs,
    });
    if (admission.admitted) {
      const flight = this.#start(id, request, work, { ledger, token: admission.token });
      return { value: (await this.#await(flight, request.signal)) as T, joined: false };
    }
    // A flight admitted meanwhile on this replica is joined here, as in one process.
    const local = this.#flights.get(id);
    if (local) {
      local.callers += 1;
      this.#joined += 1;
      return { value: (await this.#await(local, request.signal)) as T, joined: true };
    }
    if (admission.reason !== 'running') throw this.#refusal(request, admission);
    this.#joined += 1;
    const result = await ledger.awaitResult(id, admission.token, request.signal);
    if (result === undefined) {
      throw this.#refuse({
        reason: 'busy',
        scopes: [...request.scopes],
        caller: request.caller,
        message: `the same live operation of ${providersOf(request.scopes).join(', ') || 'these providers'} was running on another replica and ended without a result; retry or use the cached dataset`,
      });
    }
    return { value: JSON.parse(result) as T, joined: true };
  }

  /** The refusal for a ledger's answer: the same reasons and words as `#admit`. */
  #refusal(request: LiveOperationRequest, answer: Exclude<LedgerAdmission, { admitted: true }>) {
    const base = { scopes: [...request.scopes], caller: request.caller };
    switch (answer.reason) {
      case 'busy':
        return this.#refuse(
          answer.scopes.length > 0
            ? { ...base, scopes: answer.scopes, reason: 'busy', message: busyScopesMessage(answer.scopes) }
            : { ...base, reason: 'busy', message: busyTotalMessage(answer.total) },
        );
      case 'cooldown':
        return this.#refuse({
          ...base,
          scopes: answer.scopes,
          reason: 'cooldown',
          retry_after_seconds: seconds(answer.waitMs),
          message: coolingMessage(answer.scopes, seconds(answer.waitMs)),
        });
      case 'quota':
        return this.#refuse({
          ...base,
          reason: 'quota',
          retry_after_seconds: seconds(answer.waitMs),
          message: this.#quotaMessage(seconds(answer.waitMs)),
        });
      default:
        return this.#refuse({ ...base, reason: 'busy', message: busyScopesMessage(request.scopes) });
    }
  }

  #quotaMessage(after: number): string {
    const s = this.settings;
    return `this caller has started ${s.callerMaxOperations} live operation(s) in the last ${s.callerWindowSeconds}s, its quota; retry in ${Math.ceil(after)}s or use the cached dataset`;
  }

  /** Refuse before anything starts: caps, then cooldown, then quota. */
  #admit(request: LiveOperationRequest): void {
    const base = { scopes: [...request.scopes], caller: request.caller };
    const busy = request.scopes.filter((s) => this.#activeOn(s) >= this.settings.maxConcurrentPerScope);
    if (busy.length > 0) {
      throw this.#refuse({
        ...base,
        scopes: busy,
        reason: 'busy',
        message: busyScopesMessage(busy),
      });
    }
    if (this.#flights.size >= this.settings.maxConcurrentTotal) {
      throw this.#refuse({
        ...base,
        reason: 'busy',
        message: busyTotalMessage(this.#flights.size),
      });
    }
    const now = this.#clock.now();
    if (!request.force) {
      let wait = 0;
      const cooling: string[] = [];
      for (const scope of request.scopes) {
        const left = this.#cooldownLeft(scope, now);
        if (left > 0) {
          cooling.push(scope);
          wait = Math.max(wait, left);
        }
      }
      if (cooling.length > 0) {
        const after = seconds(wait);
        throw this.#refuse({
          ...base,
          scopes: cooling,
          reason: 'cooldown',
          retry_after_seconds: after,
          message: coolingMessage(cooling, after),
        });
      }
    }
    const max = this.settings.callerMaxOperations;
    if (max > 0) {
      const windowMs = this.settings.callerWindowSeconds * 1000;
      const recent = (this.#starts.get(request.caller) ?? []).filter((t) => now - t < windowMs);
      this.#starts.set(request.caller, recent);
      if (recent.length >= max) {
        const after = seconds((recent[0] as number) + windowMs - now);
        throw this.#refuse({
          ...base,
          reason: 'quota',
          retry_after_seconds: after,
          message: this.#quotaMessage(after),
        });
      }
    }
  }

  #refuse(data: LiveRefusalData): LiveOperationRefusedError {
    return new LiveOperationRefusedError(data);
  }

  #start<T>(
    id: string,
    request: LiveOperationRequest,
    work: (signal: AbortSignal) => Promise<T>,
    shared?: { ledger: LiveGuardLedger; token: string },
  ): Flight {
    const controller = new AbortController();
    this.#started += 1;
    // With a ledger, the quota and cooldowns are kept there; the claim is renewed while it runs.
    let result: string | undefined;
    let stopRenewing = () => {};
    if (shared) {
      const renew = () => {
        stopRenewing = this.#clock.schedule(() => {
          void shared.ledger.renew(id, shared.token, this.#clock.now(), this.#leaseMs).catch(() => {});
          renew();
        }, this.#leaseMs / 3);
      };
      renew();
    } else if (this.settings.callerMaxOperations > 0) {
      const list = this.#starts.get(request.caller) ?? [];
      list.push(this.#clock.now());
      this.#starts.set(request.caller, list);
    }
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      flight.cancelTimeout();
      if (this.#flights.get(id) === flight) this.#flights.delete(id);
      const now = this.#clock.now();
      for (const scope of request.scopes) this.#finished.set(scope, now);
      if (shared) {
        stopRenewing();
        // Best effort: a finish Redis never hears of frees the scopes when the claim expires.
        void shared.ledger.finish(id, shared.token, request.scopes, now, result).catch(() => {});
      }
    };
    const stopped = new Promise<never>((_, reject) => {
      controller.signal.addEventListener(
        'abort',
        () => {
          // The scopes are freed at once, even if the engine is slow to notice the abort.
          end();
          reject(controller.signal.reason);
        },
        { once: true },
      );
    });
    stopped.catch(() => {});
    const timeoutSeconds = this.settings.operationTimeoutSeconds;
    const flight: Flight = {
      id,
      scopes: [...request.scopes],
      controller,
      stopped,
      callers: 1,
      cancelTimeout: () => {},
      promise: Promise.resolve(),
    };
    flight.cancelTimeout = this.#clock.schedule(() => {
      controller.abort(
        new LiveOperationRefusedError({
          reason: 'timeout',
          scopes: [...request.scopes],
          caller: request.caller,
          message: `the live operation ran longer than ${timeoutSeconds}s and was cancelled`,
        }),
      );
    }, timeoutSeconds * 1000);
    this.#flights.set(id, flight);
    flight.promise = (async () => {
      try {
        const value = await work(controller.signal);
        if (shared) result = JSON.stringify(value);
        return value;
      } finally {
        end();
      }
    })();
    flight.promise.catch(() => {});
    return flight;
  }

  /** Wait for a flight as one of its callers; the last caller to leave cancels it. */
  #await(flight: Flight, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const leave = () => {
        flight.callers -= 1;
        if (flight.callers <= 0 && !flight.controller.signal.aborted) flight.controller.abort(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) {
        leave();
        return;
      }
      signal.addEventListener('abort', leave, { once: true });
      Promise.race([flight.promise, flight.stopped]).then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  #activeOn(scope: string): number {
    let n = 0;
    for (const f of this.#flights.values()) if (f.scopes.includes(scope)) n += 1;
    return n;
  }

  #cooldownFor(scope: string): number {
    const provider = scope.split('/')[0] as LiveProvider;
    return this.settings.providerCooldowns[provider] ?? this.settings.cooldownSeconds;
  }

  #cooldownLeft(scope: string, now: number): number {
    const last = this.#finished.get(scope);
    if (last === undefined) return 0;
    return last + this.#cooldownFor(scope) * 1000 - now;
  }

  /**
   * `status()` with the flights and cooldowns of every replica sharing the ledger under
   * `across_replicas` (scopes named when among `scopes`, the ones this replica's config can
   * reach; the others counted). Without a shared ledger, `status()` as it is.
   */
  async sharedStatus(scopes: readonly string[]): Promise<LiveGuardStatus> {
    const local = this.status();
    const snapshot = await this.#ledger?.snapshot?.(scopes, this.#clock.now());
    if (!snapshot) return local;
    const now = this.#clock.now();
    const cooling: Record<string, number> = {};
    for (const [scope, at] of Object.entries(snapshot.finishedAt).sort(([a], [b]) => a.localeCompare(b))) {
      const left = at + this.#cooldownFor(scope) * 1000 - now;
      if (left > 0) cooling[scope] = seconds(left);
    }
    // An unnamed scope's provider is unknown: it counts while the longest cooldown could last.
    const longest =
      Math.max(this.settings.cooldownSeconds, ...Object.values(this.settings.providerCooldowns)) * 1000;
    return {
      ...local,
      across_replicas: {
        active_total: snapshot.activeTotal,
        active_by_scope: Object.fromEntries(
          Object.entries(snapshot.activeByScope).sort(([a], [b]) => a.localeCompare(b)),
        ),
        other_scopes_active: snapshot.otherScopesActive,
        cooling_down: cooling,
        other_scopes_cooling_down: snapshot.otherFinishedAt.filter((at) => at + longest > now).length,
      },
    };
  }

  status(): LiveGuardStatus {
    const now = this.#clock.now();
    const byScope: Record<string, number> = {};
    let callers = 0;
    for (const f of this.#flights.values()) {
      callers += f.callers;
      for (const s of f.scopes) byScope[s] = (byScope[s] ?? 0) + 1;
    }
    const cooling: Record<string, number> = {};
    for (const scope of [...this.#finished.keys()].sort()) {
      const left = this.#cooldownLeft(scope, now);
      if (left > 0) cooling[scope] = seconds(left);
    }
    return {
      in_flight: callers,
      active_total: this.#flights.size,
      active_by_scope: byScope,
      cooling_down: cooling,
      started: this.#started,
      joined: this.#joined,
      cooldown_seconds: this.settings.cooldownSeconds,
      provider_cooldowns: { ...this.settings.providerCooldowns },
      max_concurrent_per_scope: this.settings.maxConcurrentPerScope,
      max_concurrent_total: this.settings.maxConcurrentTotal,
      caller_max_operations: this.settings.callerMaxOperations,
    };
  }
}

function flightId(r: LiveOperationRequest): string {
  return JSON.stringify([r.operation, [...r.providers].sort(), [...r.scopes].sort(), r.key]);
}

function busyScopesMessage(scopes: readonly string[]): string {
  return `a live operation is already running for ${providersOf(scopes).join(', ')}; retry when it finishes or use the cached dataset`;
}

function busyTotalMessage(total: number): string {
  return `${total} live operations are already running, the most this server allows at once; retry when one finishes or use the cached dataset`;
}

function coolingMessage(scopes: readonly string[], after: number): string {
  return `live collection of ${providersOf(scopes).join(', ')} ran recently; cooling down, retry in ${Math.ceil(after)}s or use the cached dataset`;
}

function providersOf(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((s) => s.split('/')[0] as string))];
}
