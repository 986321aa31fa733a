import type { Registry } from '@cloudg/core';
import type { CloudgEngine } from '../../live/engine.js';
import type { Workspace } from '../../workspace/workspace.js';
import { forceArg, nameArg, preflightArg, providersArg, regionsArg, replaceArg } from './args.js';
import { runCollecting } from './collecting.js';

/** `collect_assets`: the engine's standard, lighter collection. */
export function registerCollectAssets(registry: Registry<Workspace>, engine: CloudgEngine): void {
  registry.tool({
    name: 'collect_assets',
    title: 'Collect assets',
    description:
      'The standard multi-provider collection (core services, network edges, IAM) with read-only API calls; lighter than map_inventory. The result becomes the active dataset; returns its summary and errors. Credentials are checked first, and the live guard refuses a repeat within the cooldown (-31029, with use_dataset).',
    category: 'live',
    sensitivity: 'confidential',
    capabilities: ['cloud_access', 'read_state', 'write_state'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
    timeoutSeconds: 3600,
    // Minutes of work: a client that supports tasks gets a handle at once and polls (progress
    // shows as the task's status message); any other client waits for the result as before.
    taskSupport: 'optional',
    input: {
      providers: providersArg(),
      regions: regionsArg(),
      name: nameArg(),
      replace: replaceArg(),
      preflight: preflightArg(),
      force: forceArg(),
    },
    handler: (ctx, args) =>
      runCollecting(
        ctx,
        engine,
        {
          tool: 'collect_assets',
          prefix: 'collect',
          total: 2,
          collect: async ({ engine: e, config, providers, args: a, signal, hooks }) => {
            // Announced here as well, so the documented progress holds whatever the engine reports.
            hooks.phase('collection');
            return {
              collection: await e.collect({
                config,
                providers,
                regions: a.regions && a.regions.length > 0 ? a.regions : null,
                signal,
                hooks,
              }),
            };
          },
        },
        args,
      ),
  });
}
