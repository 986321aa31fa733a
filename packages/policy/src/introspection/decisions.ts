/**
 * `privacy_audit_log` (section 15.1): the newest entries of the decision log. Administrators
 * (`admin`, `privacy-admin`) see every principal's; anyone else only their own.
 */
import type { DecisionLogQuery, DecisionLogView, DecisionRecord, Principal } from '@cloudg/core';
import type { DecisionEntry } from '../audit/decision-log.js';
import type { IntrospectionHost } from './host.js';

/** Roles that see every principal's decisions. */
export const AUDIT_ADMIN_ROLES: readonly string[] = ['admin', 'privacy-admin'];

/** A copy, so the caller's result does not share arrays with the ring buffer. */
function toEntry(e: DecisionEntry): DecisionRecord {
  const out: DecisionRecord = {
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
  options: DecisionLogQuery,
): DecisionLogView {
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
