import type { CloudAsset, CollectionCoverage, NetworkEdge, OrganizationTopology } from '@cloudg/catalog';
import { failedEntry, failureText, finishedEntry, isDenied, newCoverage, overallEntry } from '../coverage.js';
import { selected } from '../families.js';
import { newLedger } from '../governor/governor.js';
import { buildAsset } from '../model/asset-builder.js';
import { safely } from '../port.js';
import type { ProviderCollection, ProviderCollector, ProviderRun } from '../provider.js';
import { type AwsClientSettings, AwsClients } from './clients.js';
import { type AwsTask, makeContext } from './context.js';
import { assumeRole, baseSettings, callerIdentity } from './credentials.js';
import { AWS_TASKS } from './tasks/index.js';

export interface AwsCollectorOptions {
  /**
   * Client settings that win over the config (an endpoint, injected credentials). Tests inject
   * credentials so no SDK ever walks the default chain (environment, files, instance metadata).
   */
  clientSettings?: AwsClientSettings;
  /** Regions when neither the call nor the config names any. */
  defaultRegions?: readonly string[];
  /** Tasks to run instead of the built-in ones. */
  tasks?: readonly AwsTask[];
  /** Tasks of one region that run at once (the governor paces them per service). */
  concurrency?: number;
}

interface AccountTarget {
  account: string;
  partition: string;
  settings: AwsClientSettings;
}

async function runLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

/**
 * The AWS collector: the caller's account (and, with `aws.accounts` and `aws.role_arn`, the
 * listed member accounts through the same role name), every selected task in every region, each
 * task's outcome in coverage. A task that is denied, throttled out or broken is recorded and the
 * run goes on; only cancellation stops it.
 */
export class AwsCollector implements ProviderCollector {
  readonly provider = 'aws' as const;

  constructor(private readonly options: AwsCollectorOptions = {}) {}

  async collect(run: ProviderRun): Promise<ProviderCollection> {
    const { config, signal, hooks, governor } = run;
    const regions = [
      ...(run.regions?.length
        ? run.regions
        : config.aws.regions.length
          ? config.aws.regions
          : (this.options.defaultRegions ?? ['us-east-1'])),
    ];
    const home = regions[0] ?? 'us-east-1';
    const tasks = (this.options.tasks ?? AWS_TASKS).filter((t) => selected(run.services, 'aws', t.name));
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const coverage: CollectionCoverage[] = [];
    let organization: OrganizationTopology | undefined;

    const base = baseSettings(config, this.options.clientSettings);
    const targets: AccountTarget[] = [];
    const discovery = newCoverage('aws', null, 'global');
    coverage.push(discovery);
    try {
      let settings = base;
      if (config.aws.role_arn) {
        const account = /:iam::(\d{12}):/.exec(config.aws.role_arn)?.[1] ?? '*';
        settings = {
          ...base,
          credentials: await assumeRole(config.aws.role_arn, base, config, home, governor, account, signal),
        };
      }
      const me = await callerIdentity(settings, home, governor, signal);
      discovery.account_id = me.account;
      discovery.services.push({
        service: 'sts_caller_identity',
        status: 'SUCCESS',
        asset_count: 0,
        error: null,
        duration_ms: null,
      });
      targets.push({ ...me, settings });
      const roleName = config.aws.role_arn?.split(':role/')[1];
      for (const account of config.aws.accounts) {
        if (account === me.account) continue;
        if (!roleName) {
          discovery.services.push({
            service: 'sts_assume_role',
            status: 'SKIPPED',
            asset_count: 0,
            error: `account ${account}: no aws.role_arn to assume in it`,
            duration_ms: null,
          });
          continue;
        }
        try {
          const credentials = await assumeRole(
            `arn:${me.partition}:iam::${account}:role/${roleName}`,
            settings,
            config,
            home,
            governor,
            account,
            signal,
          );
          targets.push({ account, partition: me.partition, settings: { ...base, credentials } });
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          discovery.services.push({
            service: 'sts_assume_role',
            status: 'FAILED',
            asset_count: 0,
            error: `account ${account}: ${failureText(error)}`,
            duration_ms: null,
          });
          safely(() =>
            hooks.error(
              'collection',
              `aws: could not assume the role in account ${account}: ${failureText(error)}`,
            ),
          );
        }
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      discovery.services.push({
        service: 'sts_caller_identity',
        status: 'FAILED',
        asset_count: 0,
        error: failureText(error),
        duration_ms: null,
      });
      safely(() => hooks.error('collection', `aws: ${failureText(error)}`));
      return { assets, edges, coverage, regions };
    }

    for (const target of targets) {
      const clients = new AwsClients(target.settings);
      try {
        assets.push(
          buildAsset({
            arn: `arn:${target.partition}:iam::${target.account}:root`,
            name: target.account,
            asset_type: 'CLOUD_ACCOUNT',
            provider: 'AWS',
            account_id: target.account,
            metadata: { account_id: target.account },
          }),
        );
        const units: { region: string; tasks: readonly AwsTask[] }[] = [
          {
            region: 'global',
            tasks: tasks.filter(
              (t) => t.scope === 'global' && (t.name !== 'organizations' || target === targets[0]),
            ),
          },
          ...regions.map((region) => ({ region, tasks: tasks.filter((t) => t.scope === 'regional') })),
        ];
        for (const unit of units) {
          if (unit.tasks.length === 0) continue;
          signal.throwIfAborted();
          const record = newCoverage('aws', target.account, unit.region);
          coverage.push(record);
          const clientRegion = unit.region === 'global' ? home : unit.region;
          let count = 0;
          await runLimited(unit.tasks, this.options.concurrency ?? 4, async (task) => {
            signal.throwIfAborted();
            safely(() => hooks.progress(`aws ${target.account} ${unit.region}: ${task.name}`));
            const ledger = newLedger();
            const partials: string[] = [];
            const started = Date.now();
            const ctx = makeContext({
              account: target.account,
              region: clientRegion,
              partition: target.partition,
              clients,
              governor,
              signal,
              ledger,
              partials,
              progress: (m) => safely(() => hooks.progress(m)),
            });
            try {
              const out = await task.run(ctx);
              assets.push(...out.assets);
              edges.push(...(out.edges ?? []));
              if (out.organization)
                organization = { ...out.organization, caller_account_id: targets[0]?.account ?? null };
              count += out.assets.length;
              record.services.push(
                finishedEntry(task.name, out.assets.length, ledger, partials, Date.now() - started),
              );
            } catch (error) {
              if (signal.aborted) throw signal.reason;
              const entry = failedEntry(task.name, error, Date.now() - started);
              record.services.push(entry);
              const what = isDenied(error)
                ? 'access denied'
                : entry.status === 'SKIPPED'
                  ? 'skipped'
                  : 'failed';
              safely(() =>
                hooks.error(
                  'collection',
                  `aws ${task.name} (${target.account}, ${unit.region}) ${what}: ${entry.error}`,
                ),
              );
            }
          });
          // Tasks finish in any order; coverage lists them in task order so runs compare.
          const order = new Map(unit.tasks.map((t, i) => [t.name, i]));
          record.services.sort((a, b) => (order.get(a.service) ?? 0) - (order.get(b.service) ?? 0));
          record.services.push(overallEntry('aws_full', [...record.services], count));
        }
      } finally {
        clients.destroy();
      }
    }
    return { assets, edges, coverage, regions, ...(organization ? { organization } : {}) };
  }
}
