import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../link/relationship-linker.js';
import { buildAsset } from '../model/asset-builder.js';
import { rel, relations } from '../model/relation.js';
import { kmsKeyName } from './storage-task.js';
import { computeName, type GcpTask, listPages } from './tasks.js';

/**
 * The fields of a SQL Admin `DatabaseInstance` the collector reads. Over the REST transport the
 * client decodes `google.protobuf.BoolValue` fields as `{ value }` objects and enums as their
 * names; a plain boolean is accepted too.
 */
interface SqlInstance {
  name?: string | null;
  region?: string | null;
  gceZone?: string | null;
  databaseVersion?: string | number | null;
  state?: string | number | null;
  instanceType?: string | number | null;
  connectionName?: string | null;
  masterInstanceName?: string | null;
  serviceAccountEmailAddress?: string | null;
  ipAddresses?: { type?: string | number | null; ipAddress?: string | null }[] | null;
  diskEncryptionConfiguration?: { kmsKeyName?: string | null } | null;
  settings?: {
    tier?: string | null;
    availabilityType?: string | number | null;
    userLabels?: Record<string, string> | null;
    deletionProtectionEnabled?: Flag;
    ipConfiguration?: {
      ipv4Enabled?: Flag;
      requireSsl?: Flag;
      sslMode?: string | number | null;
      privateNetwork?: string | null;
      authorizedNetworks?: { name?: string | null; value?: string | null }[] | null;
    } | null;
    backupConfiguration?: {
      enabled?: Flag;
      pointInTimeRecoveryEnabled?: Flag;
      binaryLogEnabled?: Flag;
    } | null;
  } | null;
}
type Flag = boolean | { value?: boolean | null } | null | undefined;

const flag = (value: Flag): boolean | undefined =>
  typeof value === 'boolean' ? value : (value?.value ?? undefined);
const text = (value: string | number | null | undefined): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : String(value);

/** The port a database engine listens on, for the exposure edge. */
function enginePort(version: string | undefined): number[] {
  if (!version) return [];
  if (version.startsWith('MYSQL')) return [3306];
  if (version.startsWith('POSTGRES')) return [5432];
  if (version.startsWith('SQLSERVER')) return [1433];
  return [];
}

/** The private network, given as a relative name (`projects/p/global/networks/n`) or a selfLink. */
function networkName(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.startsWith('projects/') ? `//compute.googleapis.com/${value}` : computeName(value);
}

/** A replica's primary, named `project:instance` or just `instance` (same project). */
function primaryName(master: string | null | undefined, project: string): string | null {
  if (!master) return null;
  const [p, i] = master.includes(':') ? master.split(':') : [project, master];
  return `//sqladmin.googleapis.com/projects/${p}/instances/${i}`;
}

const WORLD = new Set(['0.0.0.0/0', '::/0']);

/**
 * The SSL posture in one word: `sslMode` when the API gives it (`ENCRYPTED_ONLY`,
 * `TRUSTED_CLIENT_CERTIFICATE_REQUIRED`, `ALLOW_UNENCRYPTED_AND_ENCRYPTED`), else derived from the
 * older `requireSsl` flag, which the API keeps in step with it.
 */
function sslModeOf(ip: NonNullable<NonNullable<SqlInstance['settings']>['ipConfiguration']>): string {
  const mode = text(ip.sslMode);
  if (mode && mode !== 'SSL_MODE_UNSPECIFIED' && mode !== '0') return mode;
  return flag(ip.requireSsl) ? 'ENCRYPTED_ONLY' : 'ALLOW_UNENCRYPTED_AND_ENCRYPTED';
}

/**
 * Cloud SQL instances: engine, tier, public IP and authorized networks, SSL mode, backups. An
 * instance with a public IPv4 address and an authorized network of `0.0.0.0/0` is exposed, with
 * an `INTERNET_EXPOSED` edge from `0.0.0.0/0` carrying the engine's port; narrower networks are
 * kept in metadata. The private network `CONTAINS` the instance, a read replica `REFERENCES` its
 * primary, and a customer-managed key is an `ENCRYPTED_BY_KMS` reference.
 */
export const gcpSqlTask: GcpTask = {
  name: 'gcp_cloudsql',
  async run(ctx) {
    const client = ctx.client('sqlInstances');
    const instances = (await listPages(ctx, 'sqladmin', async (pageToken) => {
      const [page] = await client.list({ project: ctx.project, ...(pageToken ? { pageToken } : {}) }, {
        retry: null,
      } as never);
      return [page.items ?? [], page.nextPageToken ? { pageToken: page.nextPageToken } : null, page];
    })) as SqlInstance[];
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for (const db of instances) {
      if (!db.name) continue;
      const settings = db.settings ?? {};
      const ip = settings.ipConfiguration ?? {};
      const backup = settings.backupConfiguration ?? {};
      const version = text(db.databaseVersion);
      const publicIp = flag(ip.ipv4Enabled) ?? false;
      const networks = (ip.authorizedNetworks ?? []).map((n) => n.value).filter((v): v is string => !!v);
      const open = networks.filter((n) => WORLD.has(n));
      const exposed = publicIp && open.length > 0;
      const arn = `//sqladmin.googleapis.com/projects/${ctx.project}/instances/${db.name}`;
      const sslMode = sslModeOf(ip);
      const asset = buildAsset({
        arn,
        name: db.name,
        asset_type: 'CLOUD_SQL',
        provider: 'GCP',
        region: db.region,
        account_id: ctx.project,
        tags: { ...(settings.userLabels ?? {}) },
        metadata: {
          database_version: version,
          state: text(db.state),
          instance_type: text(db.instanceType),
          tier: settings.tier ?? undefined,
          availability_type: text(settings.availabilityType),
          zone: db.gceZone ?? undefined,
          connection_name: db.connectionName ?? undefined,
          public_ip: publicIp,
          ip_addresses: (db.ipAddresses ?? [])
            .filter((a) => a.ipAddress)
            .map((a) => ({ type: text(a.type), ip_address: a.ipAddress })),
          authorized_networks: networks,
          private_network: ip.privateNetwork ?? undefined,
          ssl_mode: sslMode,
          require_ssl: sslMode !== 'ALLOW_UNENCRYPTED_AND_ENCRYPTED',
          backup_enabled: flag(backup.enabled) ?? false,
          point_in_time_recovery: flag(backup.pointInTimeRecoveryEnabled) ?? false,
          binary_log: flag(backup.binaryLogEnabled),
          deletion_protection: flag(settings.deletionProtectionEnabled),
          kms_key: db.diskEncryptionConfiguration?.kmsKeyName ?? undefined,
          service_account: db.serviceAccountEmailAddress ?? undefined,
        },
        aliases: db.connectionName ? [db.connectionName] : [],
        relations: relations(
          rel(networkName(ip.privateNetwork), 'CONTAINS', null, { reverse: true }),
          rel(primaryName(db.masterInstanceName, ctx.project), 'REFERENCES', 'DEPENDS_ON', {
            description: 'read replica of',
          }),
          rel(kmsKeyName(db.diskEncryptionConfiguration?.kmsKeyName), 'REFERENCES', 'ENCRYPTED_BY_KMS'),
        ),
        is_internet_exposed: exposed,
      });
      assets.push(asset);
      if (exposed) {
        const ports = enginePort(version);
        edges.push(
          makeEdge('0.0.0.0/0', asset.id, 'INTERNET_EXPOSED', {
            relationship: 'INTERNET_REACHABLE',
            cidr: '0.0.0.0/0',
            ports,
            port_range: ports.length > 0 ? String(ports[0]) : null,
            protocol: 'TCP',
            description: 'public IP with an authorized network open to the internet',
            properties: { authorized_networks: open },
          }),
        );
      }
    }
    return { assets, edges };
  },
};
