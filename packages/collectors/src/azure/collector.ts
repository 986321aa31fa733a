import type { CloudAsset, CollectionCoverage, NetworkEdge } from '@cloudg/catalog';
import { failedEntry, finishedEntry, isDenied, newCoverage, overallEntry } from '../coverage.js';
import { selected } from '../families.js';
import { newLedger } from '../governor/governor.js';
import { buildAsset } from '../model/asset-builder.js';
import { rel } from '../model/relation.js';
import { safely } from '../port.js';
import type { ProviderCollection, ProviderCollector, ProviderRun } from '../provider.js';
import { type AzureClientSettings, AzureClients } from './clients.js';
import { type AzureTask, makeAzureContext, type RoleGrant } from './context.js';
import { credentialFromConfig } from './credential.js';
import { AZURE_TASKS } from './tasks/index.js';

export interface AzureCollectorOptions {
  /** Client settings that win over the config: an injected credential, an endpoint, an HTTP client. */
  clientSettings?: Partial<AzureClientSettings>;
  tasks?: readonly AzureTask[];
}

const PRINCIPAL_TYPES: Record<string, string> = {
  user: 'IDENTITY_USER',
  group: 'IDENTITY_GROUP',
  serviceprincipal: 'SERVICE_PRINCIPAL',
};

/**
 * Role assignments as `GRANTS_ACCESS` relations from the principal to the scope: declared on the
 * collected asset whose managed identity it is, else on an Entra principal placeholder
 * (INVENTORY_REFERENCE.md 3.3), created once per principal.
 */
function linkGrants(assets: CloudAsset[], grants: readonly RoleGrant[]): CloudAsset[] {
  const byAlias = new Map<string, CloudAsset>();
  for (const a of assets) {
    const aliases = a.metadata.aliases;
    if (Array.isArray(aliases))
      for (const alias of aliases) if (typeof alias === 'string') byAlias.set(alias, a);
  }
  const placeholders = new Map<string, CloudAsset>();
  for (const g of grants) {
    const key = `entra:principal/${g.principalId.toLowerCase()}`;
    let holder = byAlias.get(key) ?? placeholders.get(key);
    if (!holder) {
      holder = buildAsset({
        arn: key,
        name: key,
        asset_type: PRINCIPAL_TYPES[(g.principalType ?? '').toLowerCase()] ?? 'SERVICE_PRINCIPAL',
        provider: 'AZURE',
        metadata: {
          placeholder: true,
          principal_type: g.principalType,
          discovered_via: 'entra-principal-reference',
        },
      });
      placeholders.set(key, holder);
    }
    const relation = rel(g.scope, 'GRANTS_ACCESS', g.relationship ?? 'POLICY_ALLOWS_ACTION', {
      properties: g.properties ?? {
        role_definition_id: g.roleDefinitionId,
        principal_type: g.principalType,
        assignment_id: g.assignmentId,
      },
    });
    if (!relation) continue;
    const existing = Array.isArray(holder.metadata.relations) ? (holder.metadata.relations as unknown[]) : [];
    holder.metadata.relations = [...existing, relation];
  }
  return [...placeholders.values()];
}

/**
 * The Azure collector on the ARM management SDKs: each configured subscription, each selected
 * task; denied, throttled-out and failing tasks recorded in coverage while the rest go on.
 */
export class AzureCollector implements ProviderCollector {
  readonly provider = 'azure' as const;

  constructor(private readonly options: AzureCollectorOptions = {}) {}

  async collect(run: ProviderRun): Promise<ProviderCollection> {
    const { config, signal, hooks, governor } = run;
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const coverage: CollectionCoverage[] = [];
    const grants: RoleGrant[] = [];
    const subscriptions = config.azure.subscriptions;
    if (subscriptions.length === 0) {
      const record = newCoverage('azure', null, null);
      record.services.push({
        service: 'azure_full',
        status: 'SKIPPED',
        asset_count: 0,
        error: 'no subscriptions configured (azure.subscriptions)',
        duration_ms: null,
      });
      safely(() => hooks.error('collection', 'azure: no subscriptions configured (azure.subscriptions)'));
      return { assets, edges, coverage: [record], regions: [] };
    }
    const settings: AzureClientSettings = {
      ...this.options.clientSettings,
      credential: this.options.clientSettings?.credential ?? credentialFromConfig(config),
    };
    const clients = new AzureClients(settings);
    const tasks = (this.options.tasks ?? AZURE_TASKS).filter((t) => selected(run.services, 'azure', t.name));
    for (const subscription of subscriptions) {
      signal.throwIfAborted();
      const record = newCoverage('azure', subscription, null);
      coverage.push(record);
      assets.push(
        buildAsset({
          arn: `/subscriptions/${subscription}`,
          name: subscription,
          asset_type: 'CLOUD_ACCOUNT',
          provider: 'AZURE',
          account_id: subscription,
          metadata: { account_id: subscription },
        }),
      );
      let count = 0;
      for (const task of tasks) {
        signal.throwIfAborted();
        safely(() => hooks.progress(`azure ${subscription}: ${task.name}`));
        const ledger = newLedger();
        const partials: string[] = [];
        const started = Date.now();
        const ctx = makeAzureContext({ subscription, clients, governor, signal, ledger, partials });
        try {
          const out = await task.run(ctx);
          assets.push(...out.assets);
          edges.push(...(out.edges ?? []));
          grants.push(...(out.grants ?? []));
          count += out.assets.length;
          record.services.push(
            finishedEntry(task.name, out.assets.length, ledger, partials, Date.now() - started),
          );
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          const entry = failedEntry(task.name, error, Date.now() - started);
          record.services.push(entry);
          const what = isDenied(error) ? 'access denied' : entry.status === 'SKIPPED' ? 'skipped' : 'failed';
          safely(() =>
            hooks.error('collection', `azure ${task.name} (${subscription}) ${what}: ${entry.error}`),
          );
        }
      }
      record.services.push(overallEntry('azure_full', [...record.services], count));
    }
    assets.push(...linkGrants(assets, grants));
    const regions = [...new Set(assets.map((a) => a.region).filter((r) => r !== 'global'))];
    return { assets, edges, coverage, regions };
  }
}
