/**
 * The port of a live operation guard shared by several replicas (issue 20). The guard keeps its
 * own in-process flights (joins inside one replica, the operation timeout, cancellation); a
 * ledger is where the replicas agree on what runs: which flights hold which scopes (with an
 * expiry, so a replica that dies frees its scopes), when each scope last finished (cooldowns),
 * and when each caller started (the quota). Every decision of `admit` is one atomic step, so two
 * replicas never both admit past a cap. The Redis implementation lives in @cloudg/redis.
 */

/** A flight asking to start, with the limits to apply (the guard's settings, in milliseconds). */
export interface LedgerClaim {
  /** The flight's identity: the same operation, providers, scopes and arguments. */
  flight: string;
  scopes: readonly string[];
  /** Cooldown of each scope, index for index (its provider's, or the default). */
  cooldownMs: readonly number[];
  caller: string;
  force: boolean;
  /** The guard clock's time; every replica's clock must agree (NTP), as for the rate limits. */
  now: number;
  maxPerScope: number;
  maxTotal: number;
  /** 0: no caller quota. */
  callerMax: number;
  callerWindowMs: number;
  /** How long the claim holds without a renewal. */
  leaseMs: number;
}

export type LedgerAdmission =
  | { admitted: true; token: string }
  /** An identical flight holds its claim (on this replica or another): join it. */
  | { admitted: false; reason: 'running'; token: string }
  /** `scopes` at their cap, or (empty) the total cap reached with `total` flights. */
  | { admitted: false; reason: 'busy'; scopes: string[]; total: number }
  | { admitted: false; reason: 'cooldown'; scopes: string[]; waitMs: number }
  | { admitted: false; reason: 'quota'; waitMs: number };

export interface LiveGuardLedger {
  /** Admit and record the flight (its claim and the caller's start), or say why not. */
  admit(claim: LedgerClaim): Promise<LedgerAdmission>;
  /** Extend an admitted flight's claim to `now + leaseMs`; false when it has already expired. */
  renew(flight: string, token: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * The flight ended at `now`: its scopes are free and start cooling down. `result` (JSON) is
   * kept a short while for callers that joined it from other replicas; undefined when it failed.
   */
  finish(
    flight: string,
    token: string,
    scopes: readonly string[],
    now: number,
    result?: string,
  ): Promise<void>;
  /**
   * Wait for a flight admitted elsewhere to end: its result, or undefined when it failed or its
   * claim expired (its replica died). Rejects when `signal` aborts.
   */
  awaitResult(flight: string, token: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * What every replica's flights hold now and when scopes last finished, for `rate_limit_status`.
   * The ledger names scopes by keyed digests, so only the `scopes` asked about can be named; the
   * others are counted. Optional: a ledger without it leaves the status to this replica's own.
   */
  snapshot?(scopes: readonly string[], now: number): Promise<LedgerSnapshot>;
}

/** Every replica's flights, as far as the ledger can say without holding scopes in clear. */
export interface LedgerSnapshot {
  /** Flights whose claim holds, on every replica. */
  activeTotal: number;
  /** Flights holding each scope asked about (absent: none). */
  activeByScope: Record<string, number>;
  /** Scopes held by some flight that are not among those asked about (not named: digests only). */
  otherScopesActive: number;
  /** When each scope asked about last finished (clock ms; absent: never). */
  finishedAt: Record<string, number>;
  /** When each scope not asked about last finished (clock ms), unnamed. */
  otherFinishedAt: number[];
}
