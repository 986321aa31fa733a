/**
 * `privacy_audit_log` (section 15.1): the newest entries of the decision log. Administrators
 * (`admin`, `privacy-admin`) see every principal's; anyone else only their own.
 */
import type { Principal } from '@cloudg/core';
import type { DecisionEntry } from '../audit/decision-log.js';
import type { IntrospectionHost } from './host.js';

/** Roles that see every principal's decisions. */
export const AUDIT_ADMIN_ROLES: readonly string[] = ['admin', 'privacy-admin'];

export type DecisionLogEntry = {
  ts: number;
  decision: string;
  kind: string;
  name: string;
  principal: string;
  roles: string[];
  arguments: Record<string, string>;
  reason?: string;
};

export type DecisionLogResult = {
  policy: string;
  audit_enabled: boolean;
  scope: 'all' | 'own';
  /** Entries in view after the `decision` filter, before `limit`. */
  total: number;
  /** The last `limit` of them, oldest first. */
  entries: DecisionLogEntry[];
};

function toEntry(e: DecisionEntry): DecisionLogEntry {
  const out: DecisionLogEntry = {
    ts: e.ts,
    decision: e.decision,
    kind: e.kind,
    name: e.name,
    principal: e.principal,
    roles: [...e.roles],
    arguments: { ...e.arguments },
  };
  if (e.reason !== undefined) out.reason = e.reason;
  return out;
}

export function decisionLog(
  host: IntrospectionHost,
  principal: Principal,
  options: { limit: number; decision?: string },
): DecisionLogResult {
  const all = AUDIT_ADMIN_ROLES.some((role) => principal.hasRole(role));
  const inView = host.auditLog.filter(
    (e) =>
      (all || e.principal === principal.id) &&
      (options.decision === undefined || e.decision === options.decision),
  );
  const limit = Number.isFinite(options.limit) ? Math.max(0, Math.floor(options.limit)) : 0;
  return {
    policy: host.name,
    audit_enabled: host.config.audit,
    scope: all ? 'all' : 'own',
    total: inView.length,
    entries: limit === 0 ? [] : inView.slice(-limit).map(toEntry),
  };
}
