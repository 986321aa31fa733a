/** Replicas of a small layer sharing one Redis: each with its own connection, policy and cache. */
import { CachingMiddleware, Layer, Registry, type ToolResult } from '@cloudg/core';
import { Policy, type PolicyDocument } from '@cloudg/policy';
import { pino } from 'pino';
import * as z from 'zod';
import { createRedisSharedState, type RedisSharedState } from '../../src/index.js';

export interface Replica {
  layer: Layer;
  state: RedisSharedState;
  cache: CachingMiddleware;
}

/** A clock every replica reads (seconds), moved by the test instead of waiting. */
export function sharedClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(seconds: number) {
      now += seconds;
    },
  };
}

export const runs = { count: 0 };

function registry(): Registry {
  const r = new Registry();
  r.tool({
    name: 'get_asset',
    readOnly: true,
    idempotent: true,
    input: { ref: z.string() },
    handler: (_ctx, args) => ({ ref: args.ref, run: ++runs.count }),
  });
  r.tool({ name: 'touch', readOnly: false, handler: () => ({ ok: true }) });
  return r;
}

export async function replicas(
  url: string,
  n: number,
  doc: PolicyDocument,
  clock: () => number,
  commandTimeoutMs = 1000,
): Promise<Replica[]> {
  const out: Replica[] = [];
  for (let i = 0; i < n; i++) {
    const state = await createRedisSharedState(url, { commandTimeoutMs, keyPrefix: 'test:' });
    const policy = Policy.load(doc, {
      rateStore: state.rateStore,
      vaultStore: state.vaultStore,
      clock,
      logger: pino({ level: 'silent' }),
    });
    const cache = new CachingMiddleware({ ttl: 60, store: state.cacheStore });
    const layer = new Layer({
      registry: registry(),
      policy,
      middleware: [cache.middleware],
      logger: pino({ level: 'silent' }),
    });
    out.push({ layer, state, cache });
  }
  return out;
}

/** The `cloudg/error_code` of a result, or 'ok'. */
export function outcome(result: ToolResult): string | number {
  if (!result.isError) return 'ok';
  return (result.meta['cloudg/error_code'] as string | number | undefined) ?? 'error';
}
