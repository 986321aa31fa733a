/**
 * The data tier of a stack: crown-jewel stores of every weight class of MCP_TOOLS.md "Risk
 * scores" (relational databases 10; DynamoDB, warehouses, secrets, key vaults 9; keys and
 * buckets 8; file systems and search 7; caches and access keys 6; roles and users 5), each
 * granted to the stack's identity and encrypted with the account's key, databases placed in a
 * private subnet behind their own group so that the flow view can reach them only through the
 * tiers in front of them.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { AccountContext } from './context.js';
import type { Network } from './network.js';

export interface TierOptions {
  database?: boolean;
  nine?: boolean;
  bucket?: boolean;
  secret?: boolean;
  cache?: boolean;
  files?: boolean;
  search?: boolean;
}

const CONFIDENTIAL = { 'data-classification': 'confidential' };
const RESTRICTED = { 'data-classification': 'restricted' };

/** The stores of `options`, granted to `identity`; `from` is the group (or CIDR) that may reach a database. */
export function dataTier(
  ctx: AccountContext,
  net: Network,
  app: string,
  identity: CloudAsset,
  from: CloudAsset | string,
  options: TierOptions,
): CloudAsset[] {
  const { b, account, kit } = ctx;
  const region = net.region;
  const stores: CloudAsset[] = [];
  const grant = (store: CloudAsset, relationship: string) => {
    b.link(identity, 'GRANTS_ACCESS', store, { relationship });
    stores.push(store);
    ctx.jewels.push(store);
  };
  const encrypt = (store: CloudAsset) =>
    b.link(store, 'REFERENCES', ctx.key, { relationship: 'ENCRYPTED_BY_KMS' });
  const subnet = b.rng.pick(net.privateSubnets);

  if (options.database) {
    const type = b.rng.pick(kit.database);
    const engine = account.cloud === 'AZURE' ? 'sqlserver' : b.rng.pick(['postgres', 'mysql']);
    const db = b.add({
      type,
      account,
      region,
      base: `${app}-db`,
      tags: { app, env: account.env, ...RESTRICTED },
      metadata: {
        engine,
        storage_encrypted: b.rng.chance(0.85),
        backup_retention: b.rng.pick([0, 1, 7, 35]),
        publicly_accessible: false,
        multi_az: account.env === 'prod',
      },
    });
    b.link(subnet, 'CONTAINS', db, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    encrypt(db);
    const port = engine === 'mysql' ? '3306' : engine === 'sqlserver' ? '1433' : '5432';
    if (account.cloud === 'AWS') {
      const sg = b.add({
        type: 'SECURITY_GROUP',
        account,
        region,
        base: `${app}-db-sg`,
        metadata: { vpc_id: net.vpc.arn },
      });
      b.allow(from, sg, port);
      b.link(db, 'ATTACHED_TO', sg, { relationship: 'PROTECTED_BY_SG' });
    } else if (account.cloud === 'AZURE' && net.tierGroups.data) {
      b.link(db, 'ATTACHED_TO', net.tierGroups.data, { relationship: 'PROTECTED_BY_SG' });
      // An Azure SQL server holds its databases; the database is the jewel as much as the server.
      const database = b.add({
        type: 'SQL_DATABASE',
        account,
        region,
        base: `${app}-sqldb`,
        tags: { app, ...RESTRICTED },
        parent: db.arn ?? undefined,
      });
      b.link(db, 'CONTAINS', database);
      grant(database, 'POLICY_ALLOWS_ACTION');
    } else if (typeof from !== 'string') {
      b.allow(from, db, port);
    }
    grant(db, 'POLICY_ALLOWS_ACTION');
  }
  if (options.nine) {
    const type = b.rng.pick(kit.nine);
    const store = b.add({
      type,
      account,
      region,
      base: `${app}-${type === 'DYNAMODB_TABLE' ? 'table' : type === 'SECRET' ? 'credentials' : type === 'KEY_VAULT' ? 'kv' : 'warehouse'}`,
      tags: { app, ...RESTRICTED },
      metadata: { encrypted: true },
    });
    encrypt(store);
    grant(store, 'READS_FROM');
  }
  if (options.bucket) {
    let parent: string | undefined;
    if (account.cloud === 'AZURE') {
      const sa = b.add({
        type: 'STORAGE_ACCOUNT',
        account,
        region,
        base: `st${app}`,
        tags: { app, ...CONFIDENTIAL },
        metadata: { allow_blob_public_access: false, minimum_tls_version: b.rng.pick(['TLS1_0', 'TLS1_2']) },
      });
      encrypt(sa);
      grant(sa, 'READS_FROM');
      parent = sa.arn ?? undefined;
    }
    const isPublic = b.rng.chance(0.02);
    const bucket = b.add({
      type: kit.bucket,
      account,
      region: account.cloud === 'AWS' ? 'global' : region,
      base: `${app}-${account.env}-data`,
      tags: { app, ...CONFIDENTIAL },
      metadata: { versioning: b.rng.chance(0.6), public_access_block: !isPublic, encryption: 'aws:kms' },
      exposed: isPublic,
      ...(parent ? { parent } : {}),
    });
    if (parent) {
      const sa = stores[stores.length - 1];
      if (sa) b.link(sa, 'CONTAINS', bucket);
    }
    if (isPublic)
      b.link('0.0.0.0/0', 'INTERNET_EXPOSED', bucket, {
        relationship: 'INTERNET_REACHABLE',
        cidr: '0.0.0.0/0',
      });
    if (account.cloud !== 'AZURE') encrypt(bucket);
    grant(bucket, 'READS_FROM');
  }
  if (options.secret) {
    const secret =
      account.cloud === 'AZURE'
        ? ctx.key
        : b.add({
            type: kit.secret,
            account,
            region,
            base: `${app}-db-credentials`,
            tags: { app, ...RESTRICTED },
            metadata: { rotation_enabled: b.rng.chance(0.5) },
          });
    if (secret !== ctx.key) {
      encrypt(secret);
      grant(secret, 'READS_FROM');
    } else {
      b.link(identity, 'GRANTS_ACCESS', secret, { relationship: 'READS_FROM' });
    }
  }
  if (options.cache) {
    const cache = b.add({
      type: kit.cache,
      account,
      region,
      base: `${app}-cache`,
      tags: { app, ...CONFIDENTIAL },
      metadata: { transit_encryption: b.rng.chance(0.5), engine: 'redis' },
    });
    b.link(subnet, 'CONTAINS', cache, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    grant(cache, 'READS_FROM');
  }
  if (options.files) {
    const fs = b.add({
      type: kit.fileSystem,
      account,
      region,
      base: `${app}-files`,
      tags: { app, ...CONFIDENTIAL },
      metadata: { encrypted: b.rng.chance(0.8) },
    });
    b.link(subnet, 'CONTAINS', fs, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    encrypt(fs);
    grant(fs, 'READS_FROM');
  }
  if (options.search && kit.search) {
    const search = b.add({
      type: kit.search,
      account,
      region,
      base: `${app}-search`,
      tags: { app, ...CONFIDENTIAL },
      metadata: { node_to_node_encryption: b.rng.chance(0.7) },
    });
    b.link(subnet, 'CONTAINS', search, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    encrypt(search);
    grant(search, 'READS_FROM');
  }
  return stores;
}
