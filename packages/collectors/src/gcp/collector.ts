import type { CloudAsset, CollectionCoverage, NetworkEdge } from '@cloudg/catalog';
import { GoogleAuth } from 'google-auth-library';
import { failedEntry, finishedEntry, isDenied, newCoverage, overallEntry } from '../coverage.js';
import { selected } from '../families.js';
import type { Governor, TaskLedger } from '../governor/governor.js';
import { newLedger } from '../governor/governor.js';
import { buildAsset } from '../model/asset-builder.js';
import { safely } from '../port.js';
import type { ProviderCollection, ProviderCollector, ProviderRun } from '../provider.js';
import { type GcpClientName, type GcpClientOf, type GcpClientSettings, GcpClients } from './clients.js';
import type { IamJsonApi } from './iam-api.js';
import type { StorageJsonApi } from './storage-api.js';
import { GCP_TASKS, type GcpTask } from './tasks.js';

export interface GcpCollectorOptions {
  /** Settings that win over the config (an injected auth client, a stand-in endpoint). */
  clientSettings?: GcpClientSettings;
  tasks?: readonly GcpTask[];
}

/** What one GCP task gets. */
export interface GcpTaskContext {
  project: string;
  signal: AbortSignal;
  client<S extends GcpClientName>(name: S): GcpClientOf<S>;
  /** The Cloud Storage JSON API. */
  storage(): StorageJsonApi;
  /** The IAM API's service-account reads. */
  iam(): IamJsonApi;
  /** One governed request; `service` is the API (`compute`, `cloudresourcemanager`). */
  call<T>(service: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Assets collected so far for this project (the firewall task evaluates instances). */
  collected: readonly CloudAsset[];
  /** Note that part of the task's work was lost (a per-resource call denied): coverage says PARTIAL. */
  partial(message: string): void;
}

export interface GcpTaskOutput {
  assets: CloudAsset[];
  edges?: NetworkEdge[];
}

function context(
  project: string,
  clients: GcpClients,
  governor: Governor,
  signal: AbortSignal,
  ledger: TaskLedger,
  collected: CloudAsset[],
  partials: string[],
): GcpTaskContext {
  return {
    project,
    signal,
    collected,
    partial: (message) => partials.push(message),
    client: (name) => clients.get(name),
    storage: () => clients.storage(),
    iam: () => clients.iam(),
    call: (service, fn) =>
      governor.call(
        { provider: 'gcp', account: `projects/${project}`, region: null, service },
        () => fn(signal),
        signal,
        ledger,
      ),
  };
}

/**
 * The Google Cloud collector on the official `@google-cloud` clients over their REST transport:
 * each project in `gcp.projects`, networks, subnetworks, instances, firewall rules (evaluated into
 * internet ingress edges), service accounts with their policies, the project's IAM bindings,
 * Cloud Storage buckets and Cloud SQL instances.
 */
export class GcpCollector implements ProviderCollector {
  readonly provider = 'gcp' as const;

  constructor(private readonly options: GcpCollectorOptions = {}) {}

  async collect(run: ProviderRun): Promise<ProviderCollection> {
    const { config, signal, hooks, governor } = run;
    const projects = config.gcp.projects;
    if (projects.length === 0) {
      const record = newCoverage('gcp', null, null);
      record.services.push({
        service: 'gcp_full',
        status: 'SKIPPED',
        asset_count: 0,
        error: 'no projects configured (gcp.projects)',
        duration_ms: null,
      });
      safely(() => hooks.error('collection', 'gcp: no projects configured (gcp.projects)'));
      return { assets: [], edges: [], coverage: [record], regions: [] };
    }
    const settings: GcpClientSettings = { ...this.options.clientSettings };
    if (!settings.authClient && !settings.auth)
      settings.auth = new GoogleAuth({
        scopes: ['https://www.googleapis.com/auth/cloud-platform.read-only'],
        ...(config.gcp.credentials_file ? { keyFile: config.gcp.credentials_file } : {}),
      });
    const clients = new GcpClients(settings);
    const tasks = (this.options.tasks ?? GCP_TASKS).filter((t) => selected(run.services, 'gcp', t.name));
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const coverage: CollectionCoverage[] = [];
    try {
      for (const project of projects) {
        signal.throwIfAborted();
        const record = newCoverage('gcp', project, null);
        coverage.push(record);
        const projectAssets: CloudAsset[] = [
          buildAsset({
            arn: `//cloudresourcemanager.googleapis.com/projects/${project}`,
            name: project,
            asset_type: 'CLOUD_ACCOUNT',
            provider: 'GCP',
            account_id: project,
            metadata: { account_id: project },
          }),
        ];
        let count = 0;
        for (const task of tasks) {
          signal.throwIfAborted();
          safely(() => hooks.progress(`gcp ${project}: ${task.name}`));
          const ledger = newLedger();
          const partials: string[] = [];
          const started = Date.now();
          try {
            const out = await task.run(
              context(project, clients, governor, signal, ledger, projectAssets, partials),
            );
            projectAssets.push(...out.assets);
            edges.push(...(out.edges ?? []));
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
            safely(() => hooks.error('collection', `gcp ${task.name} (${project}) ${what}: ${entry.error}`));
          }
        }
        record.services.push(overallEntry('gcp_full', [...record.services], count));
        assets.push(...projectAssets);
      }
    } finally {
      await clients.close();
    }
    const regions = [...new Set(assets.map((a) => a.region).filter((r) => r !== 'global'))];
    return { assets, edges, coverage, regions };
  }
}
