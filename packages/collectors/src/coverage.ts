import type { CollectionCoverage, ServiceCoverage, ServiceStatus } from '@cloudg/catalog';
import { classify, errorCode } from './governor/classify.js';
import { CircuitOpenError } from './governor/errors.js';
import { ledgerSummary, type TaskLedger } from './governor/governor.js';
import { collectedAt } from './model/asset-builder.js';

export function newCoverage(
  provider: string,
  account: string | null,
  region: string | null,
): CollectionCoverage {
  return {
    provider,
    region,
    account_id: account,
    started_at: collectedAt(),
    completed_at: null,
    services: [],
  };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Provider messages can be long (an XML body); keep coverage readable.
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** The coverage text of a failure: `<code>: <message>`, without credentials (SDK messages hold none). */
export function failureText(error: unknown): string {
  const code = errorCode(error);
  const message = messageOf(error);
  return message.startsWith(code) ? message : `${code}: ${message}`;
}

/**
 * The status of a task that threw: skipped when the breaker never let it call, failed
 * otherwise (access denied included: the service is reported, the collection goes on).
 */
export function failedEntry(service: string, error: unknown, durationMs: number): ServiceCoverage {
  const status: ServiceStatus = error instanceof CircuitOpenError ? 'SKIPPED' : 'FAILED';
  return { service, status, asset_count: 0, error: failureText(error), duration_ms: durationMs };
}

export function finishedEntry(
  service: string,
  count: number,
  ledger: TaskLedger,
  partials: string[],
  durationMs: number,
): ServiceCoverage {
  const throttled = ledgerSummary(ledger);
  const notes = [throttled, ...partials.slice(0, 5)].filter((n): n is string => !!n);
  return {
    service,
    status: notes.length > 0 ? 'PARTIAL' : 'SUCCESS',
    asset_count: count,
    error: notes.length > 0 ? notes.join('; ') : null,
    duration_ms: durationMs,
  };
}

/** The run's overall entry (`aws_full`): PARTIAL when any task failed or was partial. */
export function overallEntry(service: string, entries: ServiceCoverage[], count: number): ServiceCoverage {
  const bad = entries.filter((e) => e.status !== 'SUCCESS');
  return {
    service,
    status: bad.length === 0 ? 'SUCCESS' : bad.length === entries.length ? 'FAILED' : 'PARTIAL',
    asset_count: count,
    error:
      bad.length === 0
        ? null
        : `${bad.length} of ${entries.length} collector(s) did not complete: ${bad.map((e) => e.service).join(', ')}`,
    duration_ms: null,
  };
}

export function isDenied(error: unknown): boolean {
  return classify(error) === 'denied';
}
