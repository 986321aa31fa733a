import type { ToolContext } from '@cloudg/core';
import type { EngineHooks, EnginePhase, LiveProvider, ThrottlingSnapshot } from '../../live/engine.js';
import { credentialPreflight } from '../../live/preflight.js';
import { LiveOperationRefusedError } from '../../live/refusal.js';
import { liveState } from '../../live/state.js';
import { ThrottlingLedger } from '../../live/throttling.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { LiveProgress } from './progress.js';

/** The note a caller that joined a running operation gets beside the shared result. */
export const JOINED_NOTE =
  'An identical live operation was already running; this call shares its result instead of collecting again.';

export interface LiveCall<T> {
  tool: string;
  providers: readonly LiveProvider[];
  /** Scopes the guard claims (empty: shared runs only, no cooldown). */
  scopes: readonly string[];
  /** The collection arguments that make two calls identical (not the dataset name). */
  key: unknown;
  force: boolean;
  /** Providers whose credentials are checked first; empty skips the preflight. */
  preflight: readonly LiveProvider[];
  progress: LiveProgress<Workspace>;
  /** The operation itself, run once however many callers join it. */
  work: (run: {
    signal: AbortSignal;
    hooks: EngineHooks;
    errors: string[];
    /** This run's throttling summary, or null when the provider never pushed back. */
    throttling: () => ThrottlingSnapshot | null;
  }) => Promise<T>;
}

/**
 * The last two checks of every live call and the run: the credential preflight, then the live
 * operation guard, then the work with hooks wired to progress, `errors` and the throttling ledger.
 * A refusal names the most recent live dataset that covers the call's providers (`use_dataset`).
 */
export async function runLive<T>(
  ctx: ToolContext<Workspace>,
  call: LiveCall<T>,
): Promise<{ value: T; joined: boolean }> {
  const ws = ctx.app;
  const state = liveState(ws);
  if (call.preflight.length > 0)
    await credentialPreflight(ws.config, call.preflight, state.preflight, ctx.signal);
  try {
    return await state.guard.run(
      {
        operation: call.tool,
        providers: call.providers,
        scopes: call.scopes,
        key: JSON.stringify(call.key),
        caller: ctx.principal.id,
        force: call.force,
        signal: ctx.signal,
      },
      async (signal) => {
        const errors: string[] = [];
        // The run's own ledger beside the server's: a result reports the throttling it met.
        const own = new ThrottlingLedger();
        let pushedBack = false;
        const hooks: EngineHooks = {
          phase: (phase: EnginePhase) => call.progress.phase(phase),
          error: (phase: EnginePhase, message: string) => {
            errors.push(`${phase}: ${message}`);
          },
          progress: (message: string) => call.progress.message(message),
          throttle: (event) => {
            state.throttling.record(event);
            own.record(event);
            if (event.kind !== 'call') pushedBack = true;
          },
        };
        return call.work({
          signal,
          hooks: guarded(hooks),
          errors,
          throttling: () => (pushedBack ? own.snapshot() : null),
        });
      },
    );
  } catch (error) {
    if (error instanceof LiveOperationRefusedError)
      throw error.withDataset(latestLiveDataset(ws, call.providers));
    throw error;
  }
}

/** Hooks that never throw back into the engine. */
function guarded(hooks: EngineHooks): EngineHooks {
  const safe =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch {
        // A listener's failure must not stop a collection.
      }
    };
  return {
    phase: safe(hooks.phase),
    error: safe(hooks.error),
    progress: safe(hooks.progress),
    throttle: safe(hooks.throttle),
  };
}

/** The most recent live dataset whose providers include every one of `providers`. */
export function latestLiveDataset(ws: Workspace, providers: readonly string[]): string | undefined {
  let best: { name: string; at: string } | undefined;
  for (const d of ws.datasets()) {
    if (d.kind !== 'live') continue;
    const has = new Set(d.providers.map((p) => p.toLowerCase()));
    if (!providers.every((p) => has.has(p))) continue;
    if (!best || d.loadedAt >= best.at) best = { name: d.name, at: d.loadedAt };
  }
  return best?.name;
}
