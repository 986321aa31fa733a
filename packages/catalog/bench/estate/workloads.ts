/**
 * Application stacks, cloud-neutral over a kit: a web tier (load balancer, pool, machines), a
 * serverless tier (a managed front, functions, a queue), a container platform (cluster, nodes,
 * namespaces, workloads, services, an ingress; ECS on some AWS stacks), an analytics tier (with
 * human users and long-lived keys) and bastions. Each stack runs as an identity that is granted
 * its data tier, so the flow view finds paths such as
 * `0.0.0.0/0 → lb-sg → lb → target group → instance → role → database`.
 *
 * A few per cent of stacks face the internet: a public load balancer, API or ingress is flagged
 * `is_internet_exposed` and gets the collector's `INTERNET_EXPOSED` edge from `0.0.0.0/0`.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { AccountContext } from './context.js';
import { dataTier } from './data-stores.js';
import type { Network } from './network.js';

/**
 * The most assets each kind of stack can create (counted from the builders below, Azure's NICs
 * and storage accounts included): an account starts a stack only when it has room for the
 * largest one of that kind, and fills the last few places with one-asset fillers.
 */
export const STACK_SIZE_MAX = { web: 26, serverless: 12, container: 60, analytics: 20, bastion: 6 } as const;

const INTERNET = '0.0.0.0/0';

function expose(ctx: AccountContext, asset: CloudAsset, port: string): void {
  asset.is_internet_exposed = true;
  ctx.b.link(INTERNET, 'INTERNET_EXPOSED', asset, {
    relationship: 'INTERNET_REACHABLE',
    cidr: INTERNET,
    port_range: port,
  });
}

/** A workload identity: IAM role, managed identity or service account. */
export function identity(ctx: AccountContext, base: string, region: string): CloudAsset {
  const { b, account, kit } = ctx;
  const global = account.cloud !== 'AZURE';
  const role = b.add({
    type: kit.identity,
    account,
    region: global ? 'global' : region,
    base,
    tags: { env: account.env },
    metadata:
      account.cloud === 'AWS'
        ? { path: '/', max_session_duration: 3600, trust_services: ['ec2.amazonaws.com'] }
        : {},
  });
  if (global) b.contain(account, role);
  ctx.identities.push(role);
  return role;
}

interface Front {
  /** The load balancer (or app gateway) the stack is entered through. */
  entry: CloudAsset;
  /** What the members are registered with: target group, instance group or the entry itself. */
  pool: CloudAsset;
  /** The group members sit in and its rule source (AWS), or the tier NSG (Azure); null on GCP. */
  memberGroup: CloudAsset | null;
}

/** Load balancer, pool and member group of a web or ECS stack. */
function front(ctx: AccountContext, net: Network, app: string, isPublic: boolean): Front {
  const { b, account, kit } = ctx;
  const region = net.region;
  const subnets = isPublic ? net.publicSubnets : net.privateSubnets;
  const entry = b.add({
    type: kit.loadBalancer,
    account,
    region,
    base: `${app}-${isPublic ? 'public' : 'internal'}-lb`,
    tags: { app, env: account.env },
    metadata: { scheme: isPublic ? 'internet-facing' : 'internal', listeners: [443] },
  });
  if (account.cloud !== 'GCP') b.link(b.rng.pick(subnets), 'CONTAINS', entry);
  if (isPublic) expose(ctx, entry, '443');
  if (account.cloud === 'AWS') {
    const lbSg = b.add({ type: 'SECURITY_GROUP', account, region, base: `${app}-lb-sg` });
    b.allow(isPublic ? INTERNET : '10.0.0.0/8', lbSg, '443');
    if (isPublic) b.allow(INTERNET, lbSg, '80');
    b.link(entry, 'ATTACHED_TO', lbSg, { relationship: 'PROTECTED_BY_SG' });
    const pool = b.add({
      type: 'TARGET_GROUP',
      account,
      region,
      base: `${app}-tg`,
      metadata: { port: 8080 },
    });
    b.link(entry, 'LOAD_BALANCER_TARGET', pool);
    const appSg = b.add({ type: 'SECURITY_GROUP', account, region, base: `${app}-app-sg` });
    b.allow(lbSg, appSg, '8080');
    return { entry, pool, memberGroup: appSg };
  }
  if (account.cloud === 'AZURE') {
    if (isPublic) {
      const ip = b.add({
        type: 'PUBLIC_IP',
        account,
        region,
        base: `${app}-pip`,
        metadata: { sku: 'Standard' },
      });
      b.link(ip, 'ATTACHED_TO', entry);
    }
    return { entry, pool: entry, memberGroup: net.tierGroups.app ?? null };
  }
  const pool = b.add({ type: 'INSTANCE_GROUP', account, region, base: `${app}-mig` });
  b.link(entry, 'LOAD_BALANCER_TARGET', pool);
  return { entry, pool, memberGroup: null };
}

/** A virtual machine in `subnet`, in `group`, running as `role`. */
function machine(
  ctx: AccountContext,
  net: Network,
  app: string,
  subnet: CloudAsset,
  group: CloudAsset | null,
  role: CloudAsset,
  tier: string,
): CloudAsset {
  const { b, account, kit } = ctx;
  const region = net.region;
  const vm = b.add({
    type: kit.vm,
    account,
    region,
    base: `${app}-${tier}`,
    tags: { app, env: account.env, owner: `${app}-team`, contact: `${app}-oncall@example.com` },
    metadata: {
      instance_type: b.rng.pick(['t3.large', 'm6i.xlarge', 'Standard_D4s_v5', 'e2-standard-4']),
      private_ip: `10.${net.cidr.split('.')[1]}.${b.rng.int(16, 63)}.${b.rng.int(4, 250)}`,
      imds_v2: b.rng.chance(0.7),
      os: b.rng.pick(['ubuntu-22.04', 'amazon-linux-2', 'rhel-9', 'windows-2022']),
    },
  });
  b.link(subnet, 'CONTAINS', vm, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
  if (account.cloud === 'AZURE') {
    // Azure puts the NSG on the NIC: the group admits the NIC, the NIC carries traffic to the VM.
    const nic = b.add({ type: 'NETWORK_INTERFACE', account, region, base: `${vm.name}-nic` });
    b.link(nic, 'ATTACHED_TO', vm);
    if (group) b.link(nic, 'ATTACHED_TO', group, { relationship: 'PROTECTED_BY_SG' });
  } else if (group) {
    b.link(vm, 'ATTACHED_TO', group, { relationship: 'PROTECTED_BY_SG' });
  }
  b.link(vm, 'ASSUMES_ROLE', role, { relationship: 'RUNS_ON' });
  ctx.machines.push(vm);
  return vm;
}

export function webStack(ctx: AccountContext, net: Network, app: string): void {
  const { b, account } = ctx;
  const isPublic = b.rng.chance(0.35);
  const f = front(ctx, net, app, isPublic);
  const role = identity(ctx, `${app}-web-role`, net.region);
  const count = b.rng.int(2, 6);
  const subnet = b.rng.pick(net.privateSubnets);
  for (let i = 0; i < count; i += 1) {
    const vm = machine(ctx, net, app, subnet, f.memberGroup, role, 'web');
    b.link(f.pool, 'LOAD_BALANCER_TARGET', vm, { port_range: '8080' });
    if (account.cloud === 'GCP') b.allow('130.211.0.0/22', vm, '8080');
  }
  dataTier(ctx, net, app, role, f.memberGroup ?? net.cidr, {
    database: b.rng.chance(0.8),
    nine: b.rng.chance(0.3),
    bucket: b.rng.chance(0.7),
    secret: b.rng.chance(0.6),
    cache: b.rng.chance(0.3),
    files: b.rng.chance(0.15),
    search: b.rng.chance(0.15),
  });
}

export function serverlessStack(ctx: AccountContext, net: Network, app: string): void {
  const { b, account, kit } = ctx;
  const region = net.region;
  const role = identity(ctx, `${app}-fn-role`, region);
  const entry = b.add({
    type: kit.front,
    account,
    region,
    base: `${app}-api`,
    tags: { app, env: account.env },
    metadata: { endpoint_type: 'REGIONAL', authorizer: b.rng.pick(['NONE', 'COGNITO', 'IAM']) },
  });
  if (b.rng.chance(0.5)) expose(ctx, entry, '443');
  // A Cloud Run service or App Service runs code itself, as the stack's identity.
  if (account.cloud !== 'AWS') b.link(entry, 'ASSUMES_ROLE', role, { relationship: 'RUNS_ON' });
  const queue = b.add({ type: kit.queue, account, region, base: `${app}-events`, tags: { app } });
  b.link(role, 'GRANTS_ACCESS', queue, { relationship: 'WRITES_TO' });
  const count = b.rng.int(1, 4);
  for (let i = 0; i < count; i += 1) {
    const fn = b.add({
      type: kit.fn,
      account,
      region,
      base: `${app}-handler`,
      tags: { app, env: account.env },
      metadata: {
        runtime: b.rng.pick(['python3.12', 'python3.8', 'nodejs20.x', 'nodejs16.x', 'java17', 'go1.x']),
        memory_size: b.rng.pick([128, 256, 512, 1024]),
        environment_keys: ['DB_HOST', 'QUEUE_URL'],
      },
    });
    b.link(entry, 'INVOKES', fn);
    if (i === 0) b.link(queue, 'INVOKES', fn, { relationship: 'TRIGGERED_BY' });
    b.link(fn, 'ASSUMES_ROLE', role, { relationship: 'RUNS_ON' });
    b.link(fn, 'LOGS_TO', ctx.logs);
    if (b.rng.chance(0.3)) b.link(fn, 'USES_IMAGE', ctx.registry);
    if (account.cloud === 'AWS' && b.rng.chance(0.2)) {
      b.link(b.rng.pick(net.privateSubnets), 'CONTAINS', fn, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    }
    ctx.workloads.push(fn);
  }
  dataTier(ctx, net, app, role, net.cidr, {
    nine: b.rng.chance(0.8),
    bucket: b.rng.chance(0.5),
    secret: b.rng.chance(0.4),
  });
}

export function containerStack(ctx: AccountContext, net: Network, app: string): void {
  const { b, account, kit } = ctx;
  const region = net.region;
  if (account.cloud === 'AWS' && b.rng.chance(0.4)) {
    ecsStack(ctx, net, app);
    return;
  }
  const subnet = b.rng.pick(net.privateSubnets);
  const cluster = b.add({
    type: kit.cluster,
    account,
    region,
    base: `${app}-cluster`,
    tags: { app, env: account.env },
    metadata: {
      version: b.rng.pick(['1.27', '1.28', '1.29', '1.30']),
      endpoint_public_access: b.rng.chance(0.3),
    },
  });
  b.link(subnet, 'CONTAINS', cluster, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
  if (account.cloud === 'AWS') {
    const sg = b.add({ type: 'SECURITY_GROUP', account, region, base: `${app}-cluster-sg` });
    b.allow('10.0.0.0/8', sg, '443');
    b.link(cluster, 'ATTACHED_TO', sg, { relationship: 'PROTECTED_BY_SG' });
  }
  const nodeRole = identity(ctx, `${app}-node-role`, region);
  const nodes = b.add({ type: kit.nodes, account, region, base: `${app}-nodes`, tags: { app } });
  b.link(cluster, 'CONTAINS', nodes);
  b.link(nodes, 'ASSUMES_ROLE', nodeRole, { relationship: 'RUNS_ON' });
  b.link(nodes, 'USES_IMAGE', ctx.registry);
  const namespaces = b.rng.int(1, 3);
  for (let n = 0; n < namespaces; n += 1) {
    const ns = b.add({
      type: 'K8S_NAMESPACE',
      account,
      region,
      base: `${app}-ns`,
      parent: `${cluster.arn}/_cluster`,
    });
    const scope = `${cluster.arn}/${ns.name}`;
    b.link(cluster, 'CONTAINS', ns);
    const appRole = identity(ctx, `${app}-workload-role`, region);
    const ksa = b.add({
      type: 'K8S_SERVICE_ACCOUNT',
      account,
      region,
      base: `${app}-sa`,
      parent: scope,
    });
    b.link(ns, 'CONTAINS', ksa);
    b.link(ksa, 'ASSUMES_ROLE', appRole, { relationship: 'BOUND_TO_ROLE' });
    const services: CloudAsset[] = [];
    const workloads = b.rng.int(2, 4);
    for (let w = 0; w < workloads; w += 1) {
      const workload = b.add({
        type: 'K8S_WORKLOAD',
        account,
        region,
        base: `${app}-deploy`,
        tags: { 'app.kubernetes.io/name': app },
        metadata: {
          kind: 'Deployment',
          replicas: b.rng.int(1, 6),
          privileged: b.rng.chance(0.1),
          run_as_non_root: b.rng.chance(0.6),
        },
        parent: scope,
      });
      b.link(ns, 'CONTAINS', workload);
      b.link(workload, 'USES_IMAGE', ctx.registry);
      b.link(workload, 'ASSUMES_ROLE', ksa, { relationship: 'RUNS_ON' });
      const svc = b.add({
        type: 'K8S_SERVICE',
        account,
        region,
        base: `${app}-svc`,
        metadata: { type: 'ClusterIP', ports: [8080] },
        parent: scope,
      });
      b.link(ns, 'CONTAINS', svc);
      b.link(svc, 'LOAD_BALANCER_TARGET', workload, { port_range: '8080' });
      services.push(svc);
      ctx.workloads.push(workload);
    }
    const ingress = b.add({
      type: 'K8S_INGRESS',
      account,
      region,
      base: `${app}-ingress`,
      metadata: { hosts: [`${app}.example.com`], tls: b.rng.chance(0.8) },
      parent: scope,
    });
    b.link(ns, 'CONTAINS', ingress);
    for (const svc of services) b.link(ingress, 'ROUTE', svc);
    if (b.rng.chance(0.4)) expose(ctx, ingress, '443');
    dataTier(ctx, net, app, appRole, net.cidr, {
      database: b.rng.chance(0.4),
      nine: b.rng.chance(0.3),
      bucket: b.rng.chance(0.4),
      cache: b.rng.chance(0.3),
    });
  }
}

function ecsStack(ctx: AccountContext, net: Network, app: string): void {
  const { b, account } = ctx;
  const region = net.region;
  const f = front(ctx, net, app, b.rng.chance(0.35));
  const cluster = b.add({ type: 'ECS_CLUSTER', account, region, base: `${app}-ecs`, tags: { app } });
  const role = identity(ctx, `${app}-task-role`, region);
  const services = b.rng.int(2, 5);
  for (let i = 0; i < services; i += 1) {
    const svc = b.add({
      type: 'ECS_SERVICE',
      account,
      region,
      base: `${app}-service`,
      tags: { app, env: account.env },
      metadata: { launch_type: 'FARGATE', desired_count: b.rng.int(1, 8) },
    });
    b.link(cluster, 'CONTAINS', svc);
    b.link(svc, 'USES_IMAGE', ctx.registry);
    b.link(svc, 'ASSUMES_ROLE', role, { relationship: 'RUNS_ON' });
    b.link(b.rng.pick(net.privateSubnets), 'CONTAINS', svc, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    if (f.memberGroup) b.link(svc, 'ATTACHED_TO', f.memberGroup, { relationship: 'PROTECTED_BY_SG' });
    b.link(f.pool, 'LOAD_BALANCER_TARGET', svc, { port_range: '8080' });
    b.link(svc, 'LOGS_TO', ctx.logs);
    ctx.workloads.push(svc);
  }
  dataTier(ctx, net, app, role, f.memberGroup ?? net.cidr, {
    database: b.rng.chance(0.6),
    bucket: b.rng.chance(0.5),
    secret: b.rng.chance(0.5),
  });
}

/** Analytics: a warehouse and buckets, analysts with long-lived keys, file and search stores. */
export function analyticsStack(ctx: AccountContext, net: Network, app: string): void {
  const { b, account, kit } = ctx;
  const region = net.region;
  const role = identity(ctx, `${app}-etl-role`, region);
  dataTier(ctx, net, app, role, net.cidr, {
    nine: true,
    bucket: true,
    files: b.rng.chance(0.5),
    search: true,
  });
  const extraBuckets = b.rng.int(1, 3);
  for (let i = 0; i < extraBuckets; i += 1)
    dataTier(ctx, net, `${app}-raw`, role, net.cidr, { bucket: true });
  if (account.cloud === 'AZURE') return;
  const warehouse = ctx.jewels[ctx.jewels.length - 1];
  const analysts = b.rng.int(1, 3);
  for (let i = 0; i < analysts; i += 1) {
    const principal =
      account.cloud === 'AWS'
        ? b.add({
            type: 'IAM_USER',
            account,
            region: 'global',
            base: `${app}-analyst`,
            tags: { team: 'data' },
            metadata: { mfa_enabled: b.rng.chance(0.6), console_access: b.rng.chance(0.5) },
          })
        : identity(ctx, `${app}-notebook-sa`, region);
    if (account.cloud === 'AWS') {
      b.contain(account, principal);
      ctx.jewels.push(principal);
    }
    if (kit.accessKey) {
      const key = b.add({
        type: kit.accessKey,
        account,
        region: 'global',
        base: `${principal.name}-key`,
        metadata: { status: 'Active', age_days: b.rng.int(3, 900) },
        parent: principal.arn ?? undefined,
      });
      b.link(key, 'ATTACHED_TO', principal);
      ctx.jewels.push(key);
    }
    if (warehouse) b.link(principal, 'GRANTS_ACCESS', warehouse, { relationship: 'READS_FROM' });
  }
}

/** A jump host open to the internet on SSH / RDP, running as an operations identity. */
export function bastion(ctx: AccountContext, net: Network): void {
  const { b, account } = ctx;
  const region = net.region;
  const role = identity(ctx, 'ops-admin-role', region);
  const subnet = b.rng.pick(net.publicSubnets);
  const port = account.cloud === 'AZURE' ? '3389' : '22';
  let group: CloudAsset | null = null;
  if (account.cloud !== 'GCP') {
    group = b.add({
      type: account.cloud === 'AWS' ? 'SECURITY_GROUP' : 'NSG',
      account,
      region,
      base: 'bastion-sg',
    });
    b.allow(account.cloud === 'AZURE' ? '*' : INTERNET, group, port);
  }
  const vm = machine(ctx, net, 'bastion', subnet, group, role, 'host');
  vm.is_internet_exposed = true;
  vm.metadata.public_ip = `203.0.113.${b.rng.int(1, 254)}`;
  if (account.cloud === 'GCP') b.allow(INTERNET, vm, port);
  if (account.cloud === 'AZURE') {
    const ip = b.add({ type: 'PUBLIC_IP', account, region, base: 'bastion-pip' });
    b.link(ip, 'ATTACHED_TO', vm);
  }
  // Operators reach everything sensitive in the account from here.
  for (const jewel of ctx.jewels.slice(0, 4))
    b.link(role, 'GRANTS_ACCESS', jewel, { relationship: 'POLICY_ALLOWS_ACTION' });
}

/**
 * A one-asset filler that keeps the account on its exact budget: a disk on a machine, an alarm
 * on a resource, or a snapshot of a store.
 */
export function filler(ctx: AccountContext, net: Network): void {
  const { b, account, kit } = ctx;
  const region = net.region;
  const roll = b.rng.next();
  const vm = ctx.machines.length ? b.rng.pick(ctx.machines) : null;
  if (vm && roll < 0.5) {
    const disk = b.add({
      type: kit.disk,
      account,
      region,
      base: `${vm.name}-disk`,
      metadata: { size_gb: b.rng.pick([20, 50, 100, 500]), encrypted: b.rng.chance(0.8) },
    });
    b.link(disk, 'ATTACHED_TO', vm);
    return;
  }
  if (roll < 0.8) {
    const watched = vm ?? b.rng.pick(ctx.jewels);
    const alarm = b.add({
      type: 'ALARM',
      account,
      region,
      base: `${watched.name}-alarm`,
      metadata: { metric: b.rng.pick(['CPUUtilization', 'StatusCheckFailed', 'FreeStorageSpace']) },
    });
    b.link(alarm, 'MONITORS', watched);
    return;
  }
  const source = b.rng.pick(ctx.jewels);
  const snap = b.add({
    type: 'SNAPSHOT',
    account,
    region,
    base: `${source.name}-snap`,
    metadata: { encrypted: b.rng.chance(0.7), shared_publicly: false },
  });
  b.link(snap, 'REFERENCES', source, { relationship: 'DEPENDS_ON' });
}
