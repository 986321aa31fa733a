import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { applyDecision, type SuppressionDecision, type SuppressionStore } from './suppression-store.js';

export interface SuppressOutcome {
  suppressed: string[];
  already_suppressed: string[];
  not_found: string[];
}

export interface UnsuppressOutcome {
  unsuppressed: string[];
  not_suppressed: string[];
  not_found: string[];
}

export interface TriageCall {
  dataset: Dataset;
  store: SuppressionStore;
  /** Who decides (the caller's principal id). */
  by: string;
  /** When, ISO 8601; default now. */
  at?: string;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Each id once, in the order given. */
function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/**
 * Record the decisions (state file first, when there is one) and only then write them on the
 * findings, so a failed save leaves the dataset unchanged. Returns the findings that changed.
 */
function decide(call: TriageCall, changes: Map<Finding, SuppressionDecision>): Finding[] {
  if (changes.size === 0) return [];
  call.store.record(call.dataset.name, new Map([...changes].map(([f, d]) => [f.id, d])));
  for (const [finding, decision] of changes) applyDecision(finding, decision);
  return [...changes.keys()];
}

/**
 * Suppress findings by exact id. An already suppressed finding gets the new reason (and who and
 * when); it is reported under `already_suppressed`. `changed` lists the findings that changed;
 * when it is empty the caller leaves the dataset version (and every cursor) alone.
 */
export function suppressFindings(
  call: TriageCall,
  ids: readonly string[],
  reason: string,
): SuppressOutcome & { changed: Finding[] } {
  const out: SuppressOutcome = { suppressed: [], already_suppressed: [], not_found: [] };
  const decision: SuppressionDecision = { suppressed: true, reason, by: call.by, at: call.at ?? now() };
  const changes = new Map<Finding, SuppressionDecision>();
  for (const id of unique(ids)) {
    const finding = call.dataset.indexes.findingById(id);
    if (!finding) {
      out.not_found.push(id);
      continue;
    }
    if (finding.is_suppressed) {
      out.already_suppressed.push(id);
      if (finding.suppression_reason === reason) continue;
    } else out.suppressed.push(id);
    changes.set(finding, decision);
  }
  return { ...out, changed: decide(call, changes) };
}

/** Restore suppressed findings by exact id, dropping their reasons. */
export function unsuppressFindings(
  call: TriageCall,
  ids: readonly string[],
): UnsuppressOutcome & { changed: Finding[] } {
  const out: UnsuppressOutcome = { unsuppressed: [], not_suppressed: [], not_found: [] };
  const decision: SuppressionDecision = {
    suppressed: false,
    reason: null,
    by: call.by,
    at: call.at ?? now(),
  };
  const changes = new Map<Finding, SuppressionDecision>();
  for (const id of unique(ids)) {
    const finding = call.dataset.indexes.findingById(id);
    if (!finding) out.not_found.push(id);
    else if (!finding.is_suppressed) out.not_suppressed.push(id);
    else {
      out.unsuppressed.push(id);
      changes.set(finding, decision);
    }
  }
  return { ...out, changed: decide(call, changes) };
}
