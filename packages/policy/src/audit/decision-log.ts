/**
 * The policy decision log (section 15.1): a ring buffer of access decisions and the same
 * events as lines on the audit logger. Arguments are kept as keyed hashes, never values.
 */
import type { DecisionRecord, Logger } from '@cloudg/core';
import type { PolicyCallKind } from '../schema/config.js';
import { Ring } from './ring.js';

/** How far back `reject` looks for the allowed entry of the refused call. */
const RECENT = 64;

export type DecisionOutcome = 'allowed' | 'denied' | 'rate_limited' | 'rejected' | 'not_found';

/**
 * One entry of the ring buffer: core's `DecisionRecord` with this policy's outcomes and kinds.
 * `name` is the tool or prompt name, static resource URI or URI template; for a resource URI
 * that matched nothing the caller may see, `(unmatched uri)`, with the URI's hash under
 * `arguments.uri`. `arguments` maps each name to a 12-hex keyed hash of its JSON value (the
 * audit log's 16-hex hash, cut).
 */
export interface DecisionEntry extends DecisionRecord {
  decision: DecisionOutcome;
  kind: PolicyCallKind;
}

export interface DecisionCounters {
  allowed: number;
  denied: number;
  rate_limited: number;
  rejected: number;
  hidden: number;
  reveal: number;
}

export interface DecisionLogOptions {
  size: number;
  /** Log allowed calls too. */
  audit: boolean;
  logger: Logger;
  policyName: string;
  now?: () => number;
}

export class DecisionLog {
  private readonly ring: Ring<DecisionEntry>;
  private readonly audit: boolean;
  private readonly logger: Logger;
  private readonly policyName: string;
  private readonly now: () => number;
  readonly counters: DecisionCounters = {
    allowed: 0,
    denied: 0,
    rate_limited: 0,
    rejected: 0,
    hidden: 0,
    reveal: 0,
  };

  constructor(options: DecisionLogOptions) {
    this.ring = new Ring(options.size);
    this.audit = options.audit;
    this.logger = options.logger;
    this.policyName = options.policyName;
    this.now = options.now ?? (() => Date.now() / 1000);
  }

  /** Entries oldest first (copies). */
  entries(): DecisionEntry[] {
    return this.ring.toArray().map((e) => ({ ...e, roles: [...e.roles], arguments: { ...e.arguments } }));
  }

  /** Record a decision: kept in the ring (the oldest goes), logged when auditing or not an allowed call. */
  record(decision: DecisionOutcome, fields: Omit<DecisionEntry, 'ts' | 'decision'>): DecisionEntry {
    const entry: DecisionEntry = { ts: this.now(), decision, ...fields };
    if (fields.reason === undefined) delete entry.reason;
    this.count(decision);
    this.ring.push(entry);
    if (decision !== 'allowed' || this.audit) this.logLine(entry);
    return entry;
  }

  /**
   * Turn the newest `allowed` entry for the same call into `rejected`, or record a new entry
   * when there is none (allowed calls are only kept with `audit: true`). Calls run
   * concurrently, so the entry need not be the very last one.
   */
  reject(fields: Omit<DecisionEntry, 'ts' | 'decision'>): DecisionEntry {
    const last = this.ring.findLast(
      (e) =>
        e.decision === 'allowed' &&
        e.kind === fields.kind &&
        e.name === fields.name &&
        e.principal === fields.principal,
      RECENT,
    );
    if (last) {
      last.decision = 'rejected';
      if (fields.reason !== undefined) last.reason = fields.reason;
      this.counters.rejected++;
      this.logLine(last);
      return last;
    }
    return this.record('rejected', fields);
  }

  /** The WARNING every allowed call to a primitive with the `reveal` capability produces. */
  warnReveal(entry: DecisionEntry): void {
    this.counters.reveal++;
    this.logger.warn(
      {
        event: 'reveal',
        policy: this.policyName,
        principal: entry.principal,
        roles: entry.roles,
        kind: entry.kind,
        name: entry.name,
        arguments: entry.arguments,
      },
      `REVEAL principal=${entry.principal} roles=${JSON.stringify(entry.roles)} ${entry.kind}=${entry.name} ` +
        `args=${JSON.stringify(entry.arguments)} policy=${this.policyName}`,
    );
  }

  private count(decision: DecisionOutcome): void {
    if (decision === 'not_found') this.counters.hidden++;
    else this.counters[decision]++;
  }

  private logLine(entry: DecisionEntry): void {
    if (!this.logger.isLevelEnabled('info')) return;
    const reason = entry.reason === undefined ? '' : ` ${entry.reason}`;
    this.logger.info(
      {
        event: 'policy.decision',
        policy: this.policyName,
        decision: entry.decision,
        kind: entry.kind,
        name: entry.name,
        principal: entry.principal,
        roles: entry.roles,
        arguments: entry.arguments,
        ...(entry.reason === undefined ? {} : { reason: entry.reason }),
      },
      `${entry.decision} ${entry.kind} ${entry.name} principal=${entry.principal}${reason}`,
    );
  }
}
