/** Everything a replica shares through Redis, over one connection. */
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { RedisChangeFanout } from './change-fanout.js';
import { connectRedis, type RedisConnectOptions, RedisStartError, redactRedisUrl } from './connect.js';
import { describeCause } from './errors.js';
import { RedisLegacySseRelay } from './legacy-sse-relay.js';
import { RedisLiveGuardLedger, type RedisLiveGuardLedgerOptions } from './live-guard-ledger.js';
import { RedisOperationLog, type RedisOperationLogOptions } from './operation-log.js';
import { RedisBucketStore } from './rate-buckets.js';
import { ReplicaBus } from './replica-bus.js';
import { RedisResponseCache } from './response-cache.js';
import { RedisSessionStore, type RedisSessionStoreOptions } from './session-store.js';
import { RedisTaskRelay } from './task-relay.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
import { RedisVaultStore } from './vault-store.js';

export interface RedisHealth {
  ok: boolean;
  /** Round trip of a PING, when it answered. */
  latencyMs?: number;
  /** Why not, as a failed request names it (`Redis is not connected`). */
  error?: string;
}

export interface RedisSharedState {
  readonly client: Redis;
  /** Handshake-era sessions shared by the replicas (the HTTP server's `sessions` option). */
  readonly sessions: RedisSessionStore;
  /**
   * The deprecated HTTP+SSE transport's sessions, held where their stream is and reached from any
   * replica (the HTTP server's `legacySseRelay` option).
   */
  readonly legacySse: RedisLegacySseRelay;
  /** Change fan-out to every replica (the HTTP server's `changes` option). */
  readonly changes: RedisChangeFanout;
  readonly rateStore: RedisBucketStore;
  readonly vaultStore: RedisVaultStore;
  readonly cacheStore: RedisResponseCache;
  /**
   * The log named `name` (`workspace`: the catalog's WorkspaceLog), sealed with `sealer` (the
   * policy vault's, so every replica with the same vault key reads it).
   */
  operationLog<T>(
    name: string,
    sealer: VaultSealer,
    options?: RedisOperationLogOptions,
  ): RedisOperationLog<T>;
  /** The live operation guard's ledger (the catalog's LiveGuardLedger), keyed with `sealer`. */
  liveGuardLedger(sealer: VaultSealer, options?: RedisLiveGuardLedgerOptions): RedisLiveGuardLedger;
  /**
   * The tasks of every replica (the HTTP server's `taskStore` and `taskRelay`), sealed with
   * `sealer` (the policy vault's). One pair per replica; closed with the state.
   */
  tasks(
    sealer: VaultSealer,
    options?: RedisTaskStoreOptions,
  ): { store: RedisTaskStore; relay: RedisTaskRelay };
  /**
   * Seal the sessions (both transports'), the change fan-out and the response cache with `sealer` (the policy
   * vault's, which every replica shares). Sessions and changes refuse to work until then: they
   * never travel through Redis in clear.
   */
  sealWith(sealer: VaultSealer): void;
  /** PING with the command timeout; never throws. */
  health(): Promise<RedisHealth>;
  close(): Promise<void>;
}

/** Build the stores over an existing client (the caller owns its connection). */
export function sharedStateOn(
  client: Redis,
  keyPrefix = 'cloudg:',
  options: RedisSessionStoreOptions = {},
): RedisSharedState {
  // One subscriber connection serves the sessions' signals, the changes and the task signals.
  const bus = new ReplicaBus(client, keyPrefix);
  const sessions = new RedisSessionStore(client, keyPrefix, bus, options);
  const changes = new RedisChangeFanout(client, keyPrefix, bus);
  // Its records live as long as this replica's heartbeat, which the session store keeps.
  const legacySse = new RedisLegacySseRelay(client, keyPrefix, bus, () => sessions.ready(), options);
  const cacheStore = new RedisResponseCache(client, keyPrefix);
  const taskParts: { store: RedisTaskStore; relay: RedisTaskRelay }[] = [];
  return {
    client,
    sessions,
    legacySse,
    changes,
    rateStore: new RedisBucketStore(client, keyPrefix),
    vaultStore: new RedisVaultStore(client, keyPrefix),
    cacheStore,
    sealWith(sealer) {
      sessions.sealWith(sealer);
      legacySse.sealWith(sealer);
      changes.sealWith(sealer);
      cacheStore.sealWith(sealer);
    },
    operationLog: (name, sealer, options) => new RedisOperationLog(client, keyPrefix, name, sealer, options),
    liveGuardLedger: (sealer, options) => new RedisLiveGuardLedger(client, keyPrefix, sealer, options),
    tasks(sealer, options) {
      // The relay binds answers to the store's question ids.
      const store = new RedisTaskStore(client, keyPrefix, sealer, options);
      const parts = {
        store,
        // The relay's wait claims lapse like the store's leases when their replica dies.
        relay: new RedisTaskRelay(client, bus, sealer, store, {
          prefix: keyPrefix,
          ...(options?.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        }),
      };
      parts.store.onOrphaned = (record) => parts.relay.announce({ kind: 'changed', record });
      taskParts.push(parts);
      return parts;
    },
    async health() {
      const start = performance.now();
      try {
        await client.ping();
        return { ok: true, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
      } catch (error) {
        // The same words a failed request uses (`is not connected`, `did not answer in time`).
        return { ok: false, error: `Redis ${describeCause(error)}` };
      }
    },
    async close() {
      for (const { store, relay } of taskParts) {
        relay.close();
        await store.close();
      }
      await legacySse.close();
      await sessions.close();
      changes.close();
      bus.close();
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

/** Connect to `url` (RedisStartError when unreachable) and build the stores. */
export async function createRedisSharedState(
  url: string,
  options: RedisConnectOptions = {},
): Promise<RedisSharedState> {
  const client = await connectRedis(url, options);
  const state = sharedStateOn(
    client,
    options.keyPrefix,
    options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs },
  );
  // A replica serves only once it hears the others: a change announced meanwhile would be missed.
  try {
    await state.sessions.ready();
    // And knows the last change announced, to catch up from after a lost connection.
    await state.changes.ready();
  } catch (error) {
    await state.close();
    throw new RedisStartError(redactRedisUrl(url), error);
  }
  return state;
}
