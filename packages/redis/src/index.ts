/**
 * @cloudg/redis: the shared state of several cloudg replicas in Redis. Each store implements a
 * port owned by the package whose concept it is (rate-limit buckets: @cloudg/policy; the vault's
 * store: @cloudg/privacy; the response cache: @cloudg/core).
 */
export { RedisChangeFanout } from './change-fanout.js';
export { connectRedis, type RedisConnectOptions, RedisStartError, redactRedisUrl } from './connect.js';
export {
  SHARED_STATE_UNAVAILABLE,
  type SharedStateUnavailableData,
  SharedStateUnavailableError,
} from './errors.js';
export { RedisLegacySseRelay, type RedisLegacySseRelayOptions } from './legacy-sse-relay.js';
export {
  type LiveLedgerAdmission,
  type LiveLedgerClaim,
  type LiveLedgerSnapshot,
  RedisLiveGuardLedger,
  type RedisLiveGuardLedgerOptions,
} from './live-guard-ledger.js';
export {
  type LoggedEntry,
  type OperationLease,
  type OperationLogHead,
  type OperationLogSnapshot,
  RedisOperationLog,
  type RedisOperationLogOptions,
} from './operation-log.js';
export { RedisBucketStore } from './rate-buckets.js';
export { RedisResponseCache } from './response-cache.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './session-store.js';
export {
  createRedisSharedState,
  type RedisHealth,
  type RedisSharedState,
  sharedStateOn,
} from './shared-state.js';
export { RedisTaskRelay } from './task-relay.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
export { RedisVaultStore } from './vault-store.js';
