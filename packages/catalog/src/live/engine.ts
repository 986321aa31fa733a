import type { CloudgConfig } from '../config/schema.js';
import type { InventoryResult } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';

/** The providers a live call may name, lower case as in the tools' `providers` argument. */
export const LIVE_PROVIDERS = ['aws', 'azure', 'gcp'] as const;
export type LiveProvider = (typeof LIVE_PROVIDERS)[number];

/**
 * The phases an engine reports through `EngineHooks.phase`. Each maps to a progress step
 * (MCP_TOOLS.md "Progress"): mapping and collection 1, scanning and ingest 2, analysis 3,
 * normalisation 4, reporting 5.
 */
export const ENGINE_PHASES = [
  'inventory_mapping',
  'collection',
  'scanning',
  'ingest',
  'analysis',
  'normalisation',
  'reporting',
] as const;
export type EnginePhase = (typeof ENGINE_PHASES)[number];

/** What one throttling event was, for `rate_limit_status.throttling`. */
export type ThrottleEventKind =
  | 'call'
  | 'throttled'
  | 'transient_error'
  | 'retry'
  | 'gave_up'
  | 'rejected'
  | 'breaker_trip'
  | 'breaker_reset'
  | 'skipped'
  | 'slowed';

/**
 * One event of the collectors' throttling governor. `scope` is a live-guard scope (`aws`,
 * `aws/123456789012`), `service` an API family (`ec2`, `Microsoft.Compute`), `bucket` a rate
 * bucket (`aws/us-east-1/ec2`). `wait_seconds` is time spent backing off; `rate` the new
 * calls-per-second of a slowed bucket. `message` is a short operator-facing text without
 * credentials.
 */
export interface ThrottleEvent {
  kind: ThrottleEventKind;
  scope: string;
  service?: string;
  bucket?: string;
  wait_seconds?: number;
  rate?: number;
  message?: string;
}

/**
 * Hooks the catalog hands to every engine call. All are synchronous and never throw back into
 * the engine (a failing listener is ignored).
 */
export interface EngineHooks {
  /** A phase starts; drives the MCP progress notifications. */
  phase(phase: EnginePhase): void;
  /**
   * A non-fatal failure (a service denied, a region unreachable): collection continues and the
   * text is returned in the result's `errors` as `phase: message`. Never put secrets here.
   */
  error(phase: EnginePhase, message: string): void;
  /** Finer progress inside a phase, shown as the notification's message. */
  progress(message: string): void;
  /** Throttling governor events, summarised in `rate_limit_status` and `cloudg://ratelimit`. */
  throttle(event: ThrottleEvent): void;
}

/** What every engine call gets. */
export interface EngineRunContext {
  /**
   * A deep copy of the workspace's cloudg config with the call's overrides applied
   * (`providers`, and `regions` replacing every selected provider's region list): the engine
   * may read credentials from it (`SecretValue.reveal()`) but never log them.
   */
  config: CloudgConfig;
  providers: readonly LiveProvider[];
  /** The call's regions, or null for the configured ones. */
  regions: readonly string[] | null;
  /**
   * Aborted when the caller cancels, every caller of a shared operation has gone, or the live
   * guard's operation timeout passes. An engine stops its API calls and rejects promptly.
   */
  signal: AbortSignal;
  hooks: EngineHooks;
}

export interface MapInventoryRequest extends EngineRunContext {
  /** Service families (`network`, `compute`, ... or `all`), or null for every family. */
  services: readonly string[] | null;
  /** The AWS Resource Groups Tagging API sweep; null = the engine's default. */
  taggingSweep: boolean | null;
}

export type CollectRequest = EngineRunContext;

/**
 * An engine's collection: assets, edges (already linked), coverage records (one per
 * provider/service/region, with `status` `skipped` or `failed` for what could not be read, so
 * `coverage_report` and `collection_failures` can say so), and optionally findings,
 * organization topology and unresolved references.
 */
export type EngineCollection = Partial<InventoryResult>;

export interface ScanRequest extends EngineRunContext {
  /** The dataset being scanned, as plain data (read-only to the engine). */
  inventory: Readonly<InventoryResult>;
  /** Where scanner output may be written (under the workspace's output directory). */
  outputDir: string;
}

export interface ReportRequest extends EngineRunContext {
  inventory: Readonly<InventoryResult>;
  outputDir: string;
}

/** Counters of the throttling governor; the catalog keeps its own ledger from `throttle` events. */
export interface ThrottlingSnapshot {
  totals: Record<string, number>;
  messages: string[];
  skipped: Record<string, string[]>;
  scopes: Record<string, Record<string, number>>;
  breakers: Record<string, string>;
  slowed_buckets: Record<string, number>;
}

/**
 * The live collection engine: the port the cloud collectors implement. Only `mapInventory` and
 * `collect` are required; the optional phases of `run_pipeline` fall back to the catalog's own
 * (reachability analysis, normalisation, a JSON report) when an engine leaves them out.
 */
export interface CloudgEngine {
  /** Deep collection with relationship linking and organization discovery (`map_inventory`). */
  mapInventory(request: MapInventoryRequest): Promise<EngineCollection>;
  /** The standard, lighter collection (`collect_assets`, the first phase of `run_pipeline`). */
  collect(request: CollectRequest): Promise<EngineCollection>;
  /** Cloud-side scanners of the pipeline's scanning phase; their findings are added. */
  scan?(request: ScanRequest): Promise<Finding[]>;
  /** Extra analysis (graph exports, ontology, RAG) of the pipeline; returns files written. */
  analyse?(request: ReportRequest): Promise<Record<string, string>>;
  /** Reports beyond the catalog's findings.json; returns format -> path. */
  report?(request: ReportRequest): Promise<Record<string, string>>;
}
