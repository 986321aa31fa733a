import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import type { CloudgEngine } from '../../live/engine.js';
import type { Workspace } from '../../workspace/workspace.js';
import { forceArg, nameArg, preflightArg, providersArg, regionsArg, replaceArg } from './args.js';
import { runCollecting } from './collecting.js';
import { collectionFailures } from './collection-result.js';

/** The service families `services` accepts. */
export const SERVICE_FAMILIES = [
  'all',
  'network',
  'compute',
  'containers',
  'kubernetes',
  'serverless',
  'integration',
  'data',
  'storage',
  'identity',
  'security',
  'dns',
  'iac',
  'logging',
] as const;

/** `map_inventory`: the complete live inventory through the engine's deep collectors. */
export function registerMapInventory(registry: Registry<Workspace>, engine: CloudgEngine): void {
  registry.tool({
    name: 'map_inventory',
    title: 'Map live inventory',
    description:
      'The complete live inventory with read-only API calls: deep collectors, catch-all sweeps, relationship linking, and organization discovery across accounts when configured. No scanners. The result becomes the active dataset; returns its summary, collection_failures (first 20 failed services) and errors. Credentials are checked first (preflight), and the live guard refuses a repeat within the cooldown (-31029, with use_dataset naming the dataset to query instead).',
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
      services: z
        .array(z.enum(SERVICE_FAMILIES))
        .nullable()
        .default(null)
        .describe(`Service families: ${SERVICE_FAMILIES.join(', ')}.`),
      tagging_sweep: z
        .boolean()
        .nullable()
        .default(null)
        .describe('AWS Resource Groups Tagging API sweep; default from config.'),
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
          tool: 'map_inventory',
          prefix: 'inventory',
          total: 2,
          before: [0.5, 'mapping inventory'],
          key: (a) => ({ services: a.services ?? [], tagging_sweep: a.tagging_sweep }),
          collect: async ({ engine: e, config, providers, args: a, signal, hooks }) => {
            // Announced here as well, so the documented progress holds whatever the engine reports.
            hooks.phase('inventory_mapping');
            return {
              collection: await e.mapInventory({
                config,
                providers,
                regions: a.regions && a.regions.length > 0 ? a.regions : null,
                services: a.services && a.services.length > 0 ? a.services : null,
                taggingSweep: a.tagging_sweep,
                signal,
                hooks,
              }),
            };
          },
          fields: (dataset) => ({ collection_failures: collectionFailures(dataset) }),
        },
        args,
      ),
  });
}
