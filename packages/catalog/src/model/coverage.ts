import { z } from 'zod';

/**
 * Collection coverage: one record per provider x account x region run, each with one entry
 * per collector task. Records only exist for live collections; no file stores them, but a
 * generic JSON may carry them. Both spellings of a task's asset count are accepted.
 */
export const SERVICE_STATUSES = ['SUCCESS', 'FAILED', 'PARTIAL', 'SKIPPED'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

export const ServiceCoverageSchema = z
  .looseObject({
    service: z.string().min(1),
    status: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(SERVICE_STATUSES)),
    asset_count: z.number().int().nullish(),
    count: z.number().int().nullish(),
    error: z.string().nullish(),
    duration_ms: z.number().nullish(),
  })
  .transform(
    (raw): ServiceCoverage => ({
      service: raw.service,
      status: raw.status,
      asset_count: raw.asset_count ?? raw.count ?? 0,
      error: raw.error ?? null,
      duration_ms: raw.duration_ms ?? null,
    }),
  );

export interface ServiceCoverage {
  service: string;
  status: ServiceStatus;
  asset_count: number;
  error: string | null;
  duration_ms: number | null;
}

export const CollectionCoverageSchema = z
  .looseObject({
    provider: z.string().transform((p) => p.toLowerCase()),
    region: z.string().nullish(),
    account_id: z.union([z.string(), z.number()]).nullish(),
    started_at: z.string().nullish(),
    completed_at: z.string().nullish(),
    services: z.array(ServiceCoverageSchema).nullish(),
  })
  .transform(
    (raw): CollectionCoverage => ({
      provider: raw.provider,
      region: raw.region ?? null,
      account_id: raw.account_id === null || raw.account_id === undefined ? null : String(raw.account_id),
      started_at: raw.started_at ?? null,
      completed_at: raw.completed_at ?? null,
      services: raw.services ?? [],
    }),
  );

export interface CollectionCoverage {
  provider: string;
  region: string | null;
  account_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  services: ServiceCoverage[];
}

export interface CoverageSummary {
  provider: string;
  region: string | null;
  account_id: string | null;
  total_services: number;
  successful: number;
  failed: number;
  coverage_pct: number;
  failures: { service: string; error: string | null }[];
}

/** The per-record summary `coverage_report` shows (successful / total, one decimal). */
export function summariseCoverage(record: CollectionCoverage): CoverageSummary {
  const total = record.services.length;
  const successful = record.services.filter((s) => s.status === 'SUCCESS').length;
  const failedEntries = record.services.filter((s) => s.status === 'FAILED');
  return {
    provider: record.provider,
    region: record.region,
    account_id: record.account_id,
    total_services: total,
    successful,
    failed: failedEntries.length,
    coverage_pct: total === 0 ? 0 : Math.round((successful / total) * 1000) / 10,
    failures: failedEntries.map((s) => ({ service: s.service, error: s.error })),
  };
}
