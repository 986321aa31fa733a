/**
 * Replicas as real HTTP servers sharing one Redis: each its own layer, connection, session view
 * and change fan-out, as separate processes would have. `kill` stops one abruptly: its sockets
 * are cut and its Redis connection dropped without a word, so its heartbeat lapses as a dead
 * process's would.
 */
import {
  allowAllPolicy,
  createLogger,
  Layer,
  type PipelineRun,
  type PolicyPort,
  Registry,
  type TransformPipeline,
} from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { type HttpServerOptions, type RunningHttpServer, serveHttp } from '@cloudg/transports';
import * as z from 'zod';
import { createRedisSharedState, type RedisSharedState } from '../../src/index.js';

export interface HttpReplica {
  name: string;
  port: number;
  layer: Layer;
  state: RedisSharedState;
  running: RunningHttpServer;
  /** Tool calls this replica ran. */
  calls: number;
  /** Gone without a goodbye: sockets cut, Redis connection dropped, no claim released. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Beats this short let a killed replica's stream claim lapse within a test. A live replica's
 * claim lapses too when its event loop stalls for three beats (450 ms), which a machine at load
 * 30 does: tests that only need live replicas pass `LIVE_HEARTBEAT_MS` instead.
 */
export const HEARTBEAT_MS = 150;
/** The production default: a live replica keeps its claims through a 6 s stall. */
export const LIVE_HEARTBEAT_MS = 2000;

/** The vault key every replica shares: sessions and changes are sealed with it. */
export const REPLICA_SEALER = createVaultSealer({ key: 'a-vault-key-the-replicas-share' });

/**
 * A stand-in for a strict policy: the client knows item `alpha` only as `p-1` (its input is
 * mapped back to the real value before use), while changes are announced under real URIs.
 */
function unmask(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('p-1', 'alpha');
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmask(v)]));
}

const PSEUDONYMISING: PolicyPort = {
  ...allowAllPolicy,
  inputPipeline: (): TransformPipeline => ({
    isEmpty: false,
    run: (value: unknown): PipelineRun => ({ value: unmask(value), report: {} }),
  }),
};

function layerFor(replica: { calls: number }, pseudonymise: boolean): Layer {
  const registry = new Registry();
  registry.tool({
    name: 'work',
    description: 'Reports progress, then answers with the replica that ran it.',
    readOnly: true,
    input: { ms: z.number().int().min(0).max(5000).default(0) },
    handler: async (ctx, args) => {
      replica.calls += 1;
      ctx.reportProgress(1, 2, 'started');
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, args.ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
      return { done: true };
    },
  });
  registry.tool({
    name: 'confirm',
    description: 'Asks the person to confirm.',
    handler: async (ctx) => ({ confirmed: await ctx.confirm('Go ahead?') }),
  });
  registry.resource({
    uri: 'memo://status',
    name: 'status',
    description: 'A resource to subscribe to.',
    handler: () => ({ status: 'ok' }),
  });
  registry.resourceTemplate({
    uriTemplate: 'memo://items/{id}',
    name: 'item',
    description: 'One item.',
    handler: (_ctx, vars) => ({ id: vars.id }),
  });
  return new Layer({
    registry,
    ...(pseudonymise ? { policy: PSEUDONYMISING } : {}),
    logger: createLogger({ level: 'silent' }),
  });
}

export async function startReplicas(
  url: string,
  names: string[],
  keyPrefix: string,
  options: HttpServerOptions & {
    pseudonymise?: boolean;
    /** Each replica's heartbeat, by name (HEARTBEAT_MS for those not named). */
    heartbeats?: Record<string, number>;
  } = {},
): Promise<HttpReplica[]> {
  const { pseudonymise = false, heartbeats = {}, ...serverOptions } = options;
  const out: HttpReplica[] = [];
  for (const name of names) {
    const heartbeatMs = heartbeats[name] ?? HEARTBEAT_MS;
    const state = await createRedisSharedState(url, { keyPrefix, heartbeatMs });
    state.sealWith(REPLICA_SEALER);
    const counter = { calls: 0 };
    const layer = layerFor(counter, pseudonymise);
    const running = await serveHttp(layer, {
      port: 0,
      authTokens: ['atok::alice', 'btok::bob'],
      keepaliveIntervalMs: 60_000,
      ...serverOptions,
      sessions: state.sessions,
      changes: state.changes,
      // Used only with `transport: 'sse'`.
      legacySseRelay: state.legacySse,
    });
    let gone = false;
    out.push({
      name,
      port: running.port,
      layer,
      state,
      running,
      get calls() {
        return counter.calls;
      },
      async kill() {
        gone = true;
        state.client.disconnect();
        running.server.httpServer.closeAllConnections();
        running.server.httpServer.close();
        await state.close();
      },
      async close() {
        if (gone) return;
        gone = true;
        await running.close();
        await state.close();
      },
    });
  }
  return out;
}
