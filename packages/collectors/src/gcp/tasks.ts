import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../link/relationship-linker.js';
import { buildAsset } from '../model/asset-builder.js';
import { type Relation, rel, relations } from '../model/relation.js';
import type { GcpTaskContext, GcpTaskOutput } from './collector.js';
import { PolicyBinder, type PolicyBinding } from './principals.js';
import { markPublic } from './public-access.js';
import { gcpServiceAccountsTask } from './service-accounts-task.js';
import { gcpSqlTask } from './sql-task.js';
import { gcpStorageTask } from './storage-task.js';

export interface GcpTask {
  /** Its coverage entry; SERVICE_FAMILY_TASKS (src/families.ts) says which families select it. */
  name: string;
  run(ctx: GcpTaskContext): Promise<GcpTaskOutput>;
}

const COMPUTE = '//compute.googleapis.com/';

/** `https://www.googleapis.com/compute/v1/projects/p/...` as the CAI full name `//compute.googleapis.com/projects/p/...`. */
export function computeName(selfLink: string | null | undefined): string | null {
  if (!selfLink) return null;
  const at = selfLink.indexOf('/projects/');
  return at < 0 ? null : `${COMPUTE}${selfLink.slice(at + 1)}`;
}

export const lastPart = (link: string | null | undefined) => (link ? (link.split('/').pop() ?? '') : '');

/** The region of a zone (`europe-west1-b` -> `europe-west1`). */
function regionOfZone(zone: string): string {
  return zone.replace(/-[a-z]$/, '');
}

/**
 * A non-aggregated list, page by page (`autoPaginate: false`), one governed request per page,
 * the client's own retries off.
 */
export async function listPages<T>(
  ctx: GcpTaskContext,
  service: string,
  send: (pageToken: string | undefined) => Promise<[T[], { pageToken?: string | null } | null, unknown]>,
): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (let i = 0; i < 10_000; i += 1) {
    ctx.signal.throwIfAborted();
    const current = token;
    const [items, next] = await ctx.call(service, () => send(current));
    out.push(...items);
    const nextToken = next?.pageToken ?? undefined;
    if (!nextToken || nextToken === token) return out;
    token = nextToken;
  }
  return out;
}

/**
 * An aggregated list. The client only offers it as an async iterator, which ends for good when
 * a page fails; so the governed unit is the whole listing, restarted from the first page on a
 * retry, with the signal checked between items.
 */
async function aggregated<T>(
  ctx: GcpTaskContext,
  service: string,
  iterate: () => AsyncIterable<[string, T]>,
): Promise<[string, T][]> {
  return ctx.call(service, async () => {
    const out: [string, T][] = [];
    for await (const entry of iterate()) {
      ctx.signal.throwIfAborted();
      out.push(entry);
    }
    return out;
  });
}

const NO_RETRY = { retry: null, autoPaginate: false } as const;

export const gcpNetworkTask: GcpTask = {
  name: 'gcp_network',
  async run(ctx) {
    const networks = ctx.client('networks');
    const subnetworks = ctx.client('subnetworks');
    const assets: CloudAsset[] = [];
    const nets = await listPages(
      ctx,
      'compute',
      (pageToken) => networks.list({ project: ctx.project, pageToken }, NO_RETRY as never) as never,
    );
    for (const n of nets as {
      name?: string;
      selfLink?: string;
      autoCreateSubnetworks?: boolean;
      routingConfig?: { routingMode?: string };
    }[]) {
      const arn = computeName(n.selfLink);
      if (!arn) continue;
      assets.push(
        buildAsset({
          arn,
          name: n.name,
          asset_type: 'VPC_NETWORK',
          provider: 'GCP',
          region: 'global',
          account_id: ctx.project,
          metadata: {
            auto_create_subnetworks: n.autoCreateSubnetworks,
            routing_mode: n.routingConfig?.routingMode,
          },
        }),
      );
    }
    const subnets = await aggregated(
      ctx,
      'compute',
      () =>
        subnetworks.aggregatedListAsync({ project: ctx.project }, NO_RETRY as never) as AsyncIterable<
          [string, { subnetworks?: unknown[] | null }]
        >,
    );
    for (const [, scoped] of subnets)
      for (const s of (scoped.subnetworks ?? []) as {
        name?: string;
        selfLink?: string;
        region?: string;
        network?: string;
        ipCidrRange?: string;
        privateIpGoogleAccess?: boolean;
      }[]) {
        const arn = computeName(s.selfLink);
        if (!arn) continue;
        assets.push(
          buildAsset({
            arn,
            name: s.name,
            asset_type: 'SUBNET',
            provider: 'GCP',
            region: lastPart(s.region),
            account_id: ctx.project,
            metadata: { ip_cidr_range: s.ipCidrRange, private_ip_google_access: s.privateIpGoogleAccess },
            relations: relations(
              rel(computeName(s.network), 'CONTAINS', 'VPC_CONTAINS_SUBNET', { reverse: true }),
            ),
          }),
        );
      }
    return { assets };
  },
};

interface GcpInstance {
  name?: string;
  selfLink?: string;
  zone?: string;
  machineType?: string;
  status?: string;
  tags?: { items?: string[] | null } | null;
  labels?: Record<string, string> | null;
  networkInterfaces?:
    | {
        network?: string;
        subnetwork?: string;
        networkIP?: string;
        accessConfigs?: { natIP?: string | null }[] | null;
      }[]
    | null;
  serviceAccounts?: { email?: string; scopes?: string[] | null }[] | null;
}

export const gcpComputeTask: GcpTask = {
  name: 'gcp_compute',
  async run(ctx) {
    const instances = ctx.client('instances');
    const assets: CloudAsset[] = [];
    const listed = await aggregated(
      ctx,
      'compute',
      () =>
        instances.aggregatedListAsync({ project: ctx.project }, NO_RETRY as never) as AsyncIterable<
          [string, { instances?: unknown[] | null }]
        >,
    );
    for (const [, scoped] of listed)
      for (const i of (scoped.instances ?? []) as GcpInstance[]) {
        const arn = computeName(i.selfLink);
        if (!arn) continue;
        const nics = i.networkInterfaces ?? [];
        const externalIps = nics
          .flatMap((n) => (n.accessConfigs ?? []).map((a) => a.natIP))
          .filter((ip): ip is string => !!ip);
        const rels: Relation[] = relations(
          ...nics.map((n) =>
            rel(computeName(n.subnetwork), 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', { reverse: true }),
          ),
          ...(i.serviceAccounts ?? []).map((sa) =>
            rel(sa.email && `serviceAccount:${sa.email}`, 'ASSUMES_ROLE', 'RUNS_ON', {
              properties: { scopes: sa.scopes },
            }),
          ),
        );
        assets.push(
          buildAsset({
            arn,
            name: i.name,
            asset_type: 'GCE_INSTANCE',
            provider: 'GCP',
            // The CAI location of a zonal resource is its zone (INVENTORY_REFERENCE.md 3.1).
            region: lastPart(i.zone),
            account_id: ctx.project,
            tags: { ...(i.labels ?? {}) },
            metadata: {
              machine_type: lastPart(i.machineType),
              status: i.status,
              network_tags: i.tags?.items ?? [],
              networks: nics.map((n) => computeName(n.network)).filter(Boolean),
              external_ips: externalIps,
              service_accounts: (i.serviceAccounts ?? []).map((s) => s.email),
              region_of_zone: i.zone ? regionOfZone(lastPart(i.zone)) : undefined,
            },
            relations: rels,
          }),
        );
      }
    return { assets };
  },
};

interface GcpFirewall {
  name?: string;
  selfLink?: string;
  network?: string;
  direction?: string;
  disabled?: boolean;
  priority?: number;
  sourceRanges?: string[] | null;
  targetTags?: string[] | null;
  allowed?: { IPProtocol?: string; ports?: string[] | null }[] | null;
}

const WORLD = new Set(['0.0.0.0/0', '::/0']);

/**
 * Firewall rules, and their evaluation (INVENTORY_REFERENCE.md 5.3): an enabled ingress allow
 * rule open to `0.0.0.0/0` exposes each instance of its network that it targets (all, or those
 * carrying one of its target tags) and that has an external IP, as a `SECURITY_GROUP_RULE` edge
 * `0.0.0.0/0 -> instance` with the rule's ports and protocol. Runs after the compute task.
 */
export const gcpFirewallTask: GcpTask = {
  name: 'gcp_firewall',
  async run(ctx) {
    const firewalls = ctx.client('firewalls');
    const rules = (await listPages(
      ctx,
      'compute',
      (pageToken) => firewalls.list({ project: ctx.project, pageToken }, NO_RETRY as never) as never,
    )) as GcpFirewall[];
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const instances = ctx.collected.filter((a) => a.asset_type === 'GCE_INSTANCE');
    for (const fw of rules) {
      const arn = computeName(fw.selfLink);
      if (!arn) continue;
      const network = computeName(fw.network);
      const open =
        fw.direction !== 'EGRESS' &&
        !fw.disabled &&
        (fw.sourceRanges ?? []).some((r) => WORLD.has(r)) &&
        (fw.allowed ?? []).length > 0;
      assets.push(
        buildAsset({
          arn,
          name: fw.name,
          asset_type: 'FIREWALL_RULE',
          provider: 'GCP',
          region: 'global',
          account_id: ctx.project,
          metadata: {
            direction: fw.direction,
            disabled: fw.disabled,
            priority: fw.priority,
            source_ranges: fw.sourceRanges ?? [],
            target_tags: fw.targetTags ?? [],
            allowed: (fw.allowed ?? []).map((a) => ({ protocol: a.IPProtocol, ports: a.ports ?? [] })),
            open_to_internet: open,
          },
          relations: relations(rel(network, 'PROTECTS')),
        }),
      );
      if (!open) continue;
      const targets = fw.targetTags ?? [];
      for (const inst of instances) {
        const nets = (inst.metadata.networks as string[] | undefined) ?? [];
        const tags = (inst.metadata.network_tags as string[] | undefined) ?? [];
        const external = ((inst.metadata.external_ips as string[] | undefined) ?? []).length > 0;
        if (!external || (network && !nets.includes(network))) continue;
        if (targets.length > 0 && !targets.some((t) => tags.includes(t))) continue;
        inst.is_internet_exposed = true;
        for (const allowed of fw.allowed ?? []) {
          const ports = (allowed.ports ?? []).filter((p) => /^\d+$/.test(p)).map(Number);
          const protocol = (allowed.IPProtocol ?? 'all').toUpperCase();
          edges.push(
            makeEdge('0.0.0.0/0', inst.id, 'SECURITY_GROUP_RULE', {
              ports,
              port_range: (allowed.ports ?? []).join(',') || '0-65535',
              protocol: protocol === 'ALL' ? 'ALL' : protocol,
              cidr: '0.0.0.0/0',
              direction: 'ingress',
              properties: { firewall: fw.name },
            }),
          );
        }
      }
    }
    return { assets, edges };
  },
};

/**
 * The project's IAM policy (INVENTORY_INTERNALS.md 9.5): each member is granted access to the
 * project from its principal (a service account collected by `gcp_service_accounts`, else a
 * `gcp-principal:<member>` placeholder), with every role it holds there on the one relation. An
 * impersonation role on the project covers all its service accounts, so the member also
 * `ASSUMES_ROLE` each collected one. `allUsers` and `allAuthenticatedUsers` create no principal:
 * they mark the project exposed.
 */
export const gcpIamTask: GcpTask = {
  name: 'gcp_iam_policies',
  async run(ctx) {
    const projects = ctx.client('projects');
    const [policy] = await ctx.call('cloudresourcemanager', () =>
      projects.getIamPolicy({ resource: `projects/${ctx.project}` }, { retry: null } as never),
    );
    const projectArn = `//cloudresourcemanager.googleapis.com/projects/${ctx.project}`;
    const serviceAccounts = ctx.collected
      .filter((a) => a.asset_type === 'SERVICE_ACCOUNT' && a.account_id === ctx.project && a.arn)
      .map((a) => a.arn as string);
    const binder = new PolicyBinder(ctx.collected);
    const open = binder.bind(projectArn, (policy.bindings ?? []) as PolicyBinding[], {
      actAs: serviceAccounts,
    });
    const project = ctx.collected.find((a) => a.arn === projectArn);
    const edges = project ? markPublic(project, open, 'project IAM policy') : [];
    return { assets: binder.finish(), edges };
  },
};

/**
 * In run order: the firewall evaluation needs the instances; the IAM policies bind to the
 * service accounts collected before them.
 */
export const GCP_TASKS: readonly GcpTask[] = [
  gcpNetworkTask,
  gcpComputeTask,
  gcpFirewallTask,
  gcpServiceAccountsTask,
  gcpIamTask,
  gcpStorageTask,
  gcpSqlTask,
];
