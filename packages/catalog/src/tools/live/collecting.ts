import type { ToolContext } from '@cloudg/core';
import type { CloudgEngine, EngineCollection, EngineHooks, LiveProvider } from '../../live/engine.js';
import { checkedCollection } from '../../live/engine-output.js';
import { scopesOf } from '../../live/scopes.js';
import { addLiveDataset } from '../../live/store.js';
import type { Workspace } from '../../workspace/workspace.js';
import { callConfig, checkForce, parseProviders, resultName } from './args.js';
import {
  COLLECTION_NEXT_STEPS,
  collectionFailures,
  durationSince,
  linkDataset,
  liveSummary,
} from './collection-result.js';
import { LiveProgress } from './progress.js';
import { JOINED_NOTE, runLive } from './run-live.js';

export interface CollectingArgs {
  providers: string[] | null;
  regions: string[] | null;
  name: string;
  replace: boolean;
  preflight: boolean;
  force: boolean;
}

export interface CollectingSpec<A extends CollectingArgs> {
  tool: string;
  /** Default dataset name prefix (`inventory`, `collect`, `pipeline`). */
  prefix: string;
  /** Progress `total`: 2 for collections, 6 for the pipeline. */
  total: number;
  /** Collection arguments besides providers and regions that make two calls differ. */
  key?: (args: A) => unknown;
  /** Checks of tool-specific arguments that run first, with the others (a pipeline's subdir). */
  check?: (ctx: ToolContext<Workspace>, args: A) => void;
  /** Progress sent before the engine starts (`map_inventory`'s 0.5). */
  before?: [number, string];
  collect: (run: {
    ctx: ToolContext<Workspace>;
    /** The result dataset's name. */
    name: string;
    engine: CloudgEngine;
    config: ReturnType<typeof callConfig>;
    providers: LiveProvider[];
    args: A;
    signal: AbortSignal;
    hooks: EngineHooks;
    errors: string[];
  }) => Promise<{ collection: EngineCollection; extra?: Record<string, unknown> }>;
  /** Fields of the result that only this tool has, read from the new dataset. */
  fields?: (dataset: import('../../dataset/dataset.js').Dataset) => Record<string, unknown>;
}

/**
 * One collecting call in the documented order: arguments, the result name, `force`, the
 * preflight, the guard, and only then the engine. The collection becomes a new active `live`
 * dataset, saved under the output directory so a restart can load it again.
 */
export async function runCollecting<A extends CollectingArgs>(
  ctx: ToolContext<Workspace>,
  engine: CloudgEngine,
  spec: CollectingSpec<A>,
  args: A,
): Promise<Record<string, unknown>> {
  const ws = ctx.app;
  const providers = parseProviders(args.providers, ws.config);
  spec.check?.(ctx, args);
  const name = resultName(ws, args.name, args.replace, spec.prefix);
  checkForce(ctx.principal, args.force);
  const config = callConfig(ws.config, providers, args.regions);
  const progress = new LiveProgress(ctx, spec.total);
  const started = Date.now();
  const { value, joined } = await runLive(ctx, {
    tool: spec.tool,
    providers,
    scopes: scopesOf(config, providers),
    key: { regions: args.regions ?? [], extra: spec.key?.(args) ?? null },
    force: args.force,
    preflight: args.preflight ? providers : [],
    progress,
    work: async ({ signal, hooks, errors, throttling }) => {
      if (spec.before) progress.send(...spec.before);
      const { collection: raw, extra } = await spec.collect({
        ctx,
        name,
        engine,
        config,
        providers,
        args,
        signal,
        hooks,
        errors,
      });
      signal.throwIfAborted();
      const collection = checkedCollection(raw, spec.tool);
      const { dataset, unsaved } = await addLiveDataset(
        ws,
        { ...collection, providers: collection.providers ?? [...providers] },
        { name, named: args.name !== '', activate: true, replace: args.replace, tool: spec.tool },
        signal,
      );
      if (unsaved) errors.push(unsaved);
      return {
        dataset: dataset.name,
        active: ws.activeName === dataset.name,
        tool: spec.tool,
        duration_s: durationSince(started),
        summary: liveSummary(dataset),
        ...(spec.fields?.(dataset) ?? {}),
        ...(extra ?? {}),
        errors,
        // Only when the provider pushed back (throttled, retried, skipped), as the reference does.
        ...(throttling() ? { throttling: throttling() } : {}),
        next_steps: COLLECTION_NEXT_STEPS,
      };
    },
  });
  await progress.done();
  linkDataset(ctx, value.dataset);
  return joined ? { ...value, joined: true, note: JOINED_NOTE } : value;
}

export { collectionFailures };
