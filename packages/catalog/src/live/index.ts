/**
 * The live collection port (issue 19). The catalog never imports a cloud SDK: a collector package
 * implements `CloudgEngine` and an application hands it to `registerLiveTools(registry, { engine })`
 * or `defaultRegistry({ live: { engine } })`; tests pass an in-memory engine the same way.
 *
 * Phases. `mapInventory` (deep collection, `map_inventory`) and `collect` (the standard one,
 * `collect_assets`) return an `EngineCollection`: assets, linked edges, coverage records (one per
 * provider/account/region with a status per service; `FAILED`/`SKIPPED` services are what
 * `collection_failures` and `coverage_report` show), optionally findings, organization topology
 * and unresolved references. `scan`, `analyse` and `report` are optional phases of a pipeline.
 *
 * Hooks. Every request carries `hooks`: `phase(name)` when a phase starts (mapped to MCP progress:
 * inventory_mapping/collection 1, scanning/ingest 2, analysis 3, normalisation 4, reporting 5),
 * `error(phase, message)` for a non-fatal failure (a denied service: keep collecting; the text is
 * returned in `errors` as `phase: message`), `progress(message)` for finer progress, and
 * `throttle(event)` for the throttling governor's events (calls, throttles, retries, give-ups,
 * breaker trips and resets, skipped services, slowed buckets), summarised in
 * `rate_limit_status.throttling` and `cloudg://ratelimit`. Hooks never throw into the engine.
 *
 * Cancellation. `request.signal` aborts when the caller cancels, when every caller of a shared
 * operation has gone, or when the guard's operation timeout passes: stop issuing API calls and
 * reject promptly (with the signal's reason). The guard frees the scopes at once either way.
 *
 * Credentials. `request.config` is a per-call copy of the cloudg config with the call's providers
 * and regions applied; secrets are `SecretValue`s, revealed only where an SDK client is built and
 * never logged or put in a hook message. Collectors make read-only API calls only.
 *
 * Before an engine is called, the catalog has checked the arguments, the result dataset's name,
 * `force` (admin/operator only), the credentials (`credentialPreflight`, bounded at 25 s) and the
 * live operation guard (single-flight, caps, cooldowns, quota, timeout).
 */
export type { LiveClock } from './clock.js';
export type {
  CloudgEngine,
  CollectRequest,
  EngineCollection,
  EngineHooks,
  EnginePhase,
  EngineRunContext,
  LiveProvider,
  MapInventoryRequest,
  ReportRequest,
  ScanRequest,
  ThrottleEvent,
  ThrottleEventKind,
  ThrottlingSnapshot,
} from './engine.js';
export {
  type LiveGuardSettings,
  type LiveGuardStatus,
  LiveOperationGuard,
  type LiveOperationRequest,
} from './guard.js';
export type { LedgerAdmission, LedgerClaim, LedgerSnapshot, LiveGuardLedger } from './guard-ledger.js';
export { CredentialPreflightError, credentialPreflight } from './preflight.js';
export {
  defaultPreflightEnvironment,
  type IdentityProbe,
  type PreflightEnvironment,
} from './preflight-env.js';
export { LiveOperationRefusedError, type LiveRefusalData, type RefusalReason } from './refusal.js';
export { configureLive, type LiveState, liveState } from './state.js';
export { type RestoreOutcome, restoreLiveDatasets } from './store.js';
