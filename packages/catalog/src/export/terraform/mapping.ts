import type { CloudAsset } from '../../model/asset.js';

/** The three Terraform providers the exporter writes for. */
export type TerraformProvider = 'aws' | 'azurerm' | 'google';

/** A value of a resource argument: a literal, or a reference to another resource's attribute. */
export type HclValue = string | number | boolean | HclReference | HclValue[] | { [key: string]: string };

/**
 * A reference to another resource's attribute or a type keyword, written bare. A class, so that
 * no value read from data (a tag map with a `ref` key) can ever be mistaken for one.
 */
export class HclReference {
  constructor(readonly ref: string) {}
}

export interface TerraformMapping {
  type: string;
  provider: TerraformProvider;
  /** Arguments read from the asset (only those the collected data has). */
  args: (asset: CloudAsset) => Record<string, HclValue>;
  /** What `terraform import` expects for this resource type. */
  importId: (asset: CloudAsset) => string;
}

const meta = (a: CloudAsset, ...keys: string[]): unknown => {
  for (const key of keys) {
    const value = a.metadata?.[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
};

/** Scalar metadata values become arguments; anything else is left out (review before use). */
function pick(a: CloudAsset, map: Record<string, readonly string[]>): Record<string, HclValue> {
  const out: Record<string, HclValue> = {};
  for (const [arg, keys] of Object.entries(map)) {
    const value = meta(a, ...keys);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[arg] = value;
  }
  return out;
}

/** The last segment of an ARN or resource path (`i-0web1` of `...:instance/i-0web1`), else the id. */
function resourceTail(a: CloudAsset): string {
  const source = a.arn ?? a.id;
  const tail = source.split(/[/:]/).pop();
  return tail || a.id;
}

const awsTagged = (extra: (a: CloudAsset) => Record<string, HclValue>) => (a: CloudAsset) => ({
  ...extra(a),
  tags: { Name: a.name, ...a.tags },
});

const azureArgs = (extra: (a: CloudAsset) => Record<string, HclValue>) => (a: CloudAsset) => ({
  name: a.name,
  location: a.region,
  ...extra(a),
  tags: { ...a.tags },
});

const googleArgs = (extra: (a: CloudAsset) => Record<string, HclValue>) => (a: CloudAsset) => ({
  name: a.name,
  ...extra(a),
});

const byArn = (a: CloudAsset) => a.arn ?? a.id;
const byName = (a: CloudAsset) => a.name;
/** Azure imports by the full resource id, which Azure assets carry as their `arn`. */
const byResourceId = (a: CloudAsset) => a.arn ?? a.id;

/**
 * Asset type -> the Terraform resource that recreates it. The exporter maps only the resources
 * whose arguments it can fill from collected data and import by an identifier the asset
 * carries; everything else is reported under `unmapped_asset_types` and skipped. On the sample
 * estate this maps 29 of 44 assets to 18 resource types, as the reference's example shows.
 * (The wider `terraform_type` column of explain_asset_type names the nearest resource for
 * every type; it is documentation, not what the exporter writes.)
 */
export const TERRAFORM_MAPPINGS: Readonly<Record<string, TerraformMapping>> = {
  // ---- AWS ----
  VPC: {
    type: 'aws_vpc',
    provider: 'aws',
    args: awsTagged((a) => pick(a, { cidr_block: ['cidr_block', 'cidr'] })),
    importId: resourceTail,
  },
  SUBNET: {
    type: 'aws_subnet',
    provider: 'aws',
    args: awsTagged((a) =>
      pick(a, { cidr_block: ['cidr_block', 'cidr'], availability_zone: ['availability_zone', 'az'] }),
    ),
    importId: resourceTail,
  },
  SECURITY_GROUP: {
    type: 'aws_security_group',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name, ...pick(a, { description: ['description'] }) })),
    importId: resourceTail,
  },
  LOAD_BALANCER: {
    type: 'aws_lb',
    provider: 'aws',
    args: awsTagged((a) => ({
      name: a.name,
      internal: !a.is_internet_exposed,
      ...pick(a, { load_balancer_type: ['load_balancer_type', 'type'] }),
    })),
    importId: byArn,
  },
  EC2: {
    type: 'aws_instance',
    provider: 'aws',
    args: awsTagged((a) => pick(a, { ami: ['image_id', 'ami'], instance_type: ['instance_type'] })),
    importId: resourceTail,
  },
  RDS_INSTANCE: {
    type: 'aws_db_instance',
    provider: 'aws',
    args: awsTagged((a) => ({
      identifier: a.name,
      ...pick(a, {
        engine: ['engine'],
        instance_class: ['instance_class', 'db_instance_class'],
        storage_encrypted: ['storage_encrypted', 'encrypted'],
        publicly_accessible: ['publicly_accessible'],
      }),
    })),
    importId: byName,
  },
  S3_BUCKET: {
    type: 'aws_s3_bucket',
    provider: 'aws',
    args: awsTagged((a) => ({ bucket: a.name })),
    importId: byName,
  },
  IAM_ROLE: {
    type: 'aws_iam_role',
    provider: 'aws',
    args: awsTagged((a) => ({
      name: a.name,
      // Required by the provider; the collected trust policy is not kept in the inventory.
      assume_role_policy: '{"Version":"2012-10-17","Statement":[]}',
    })),
    importId: byName,
  },
  LAMBDA_FUNCTION: {
    type: 'aws_lambda_function',
    provider: 'aws',
    args: awsTagged((a) => ({
      function_name: a.name,
      ...pick(a, { runtime: ['runtime'], handler: ['handler'] }),
    })),
    importId: byName,
  },
  KMS_KEY: {
    type: 'aws_kms_key',
    provider: 'aws',
    args: awsTagged((a) =>
      pick(a, {
        description: ['description'],
        enable_key_rotation: ['rotation_enabled', 'key_rotation_enabled'],
      }),
    ),
    importId: resourceTail,
  },
  SECRET: {
    type: 'aws_secretsmanager_secret',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name })),
    importId: byArn,
  },
  CONTAINER_REGISTRY: {
    type: 'aws_ecr_repository',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name })),
    importId: byName,
  },
  DYNAMODB_TABLE: {
    type: 'aws_dynamodb_table',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name })),
    importId: byName,
  },
  NOTIFICATION_TOPIC: {
    type: 'aws_sns_topic',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name })),
    importId: byArn,
  },
  MESSAGE_QUEUE: {
    type: 'aws_sqs_queue',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name })),
    importId: (a) => String(meta(a, 'queue_url', 'url') ?? a.arn ?? a.id),
  },
  EKS_CLUSTER: {
    type: 'aws_eks_cluster',
    provider: 'aws',
    args: awsTagged((a) => ({ name: a.name, ...pick(a, { version: ['version'] }) })),
    importId: byName,
  },
  // ---- Azure ----
  VNET: {
    type: 'azurerm_virtual_network',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'] })),
    importId: byResourceId,
  },
  NSG: {
    type: 'azurerm_network_security_group',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'] })),
    importId: byResourceId,
  },
  VIRTUAL_MACHINE: {
    type: 'azurerm_linux_virtual_machine',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'], size: ['vm_size', 'size'] })),
    importId: byResourceId,
  },
  KEY_VAULT: {
    type: 'azurerm_key_vault',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'], sku_name: ['sku'] })),
    importId: byResourceId,
  },
  STORAGE_ACCOUNT: {
    type: 'azurerm_storage_account',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'] })),
    importId: byResourceId,
  },
  AKS_CLUSTER: {
    type: 'azurerm_kubernetes_cluster',
    provider: 'azurerm',
    args: azureArgs((a) => pick(a, { resource_group_name: ['resource_group'] })),
    importId: byResourceId,
  },
  // ---- Google Cloud ----
  GCS_BUCKET: {
    type: 'google_storage_bucket',
    provider: 'google',
    args: googleArgs((a) => ({ location: a.region.toUpperCase() })),
    importId: byName,
  },
  GCE_INSTANCE: {
    type: 'google_compute_instance',
    provider: 'google',
    args: googleArgs((a) => ({ zone: a.region, ...pick(a, { machine_type: ['machine_type'] }) })),
    importId: (a) => `${a.account_id ?? ''}/${a.region}/${a.name}`,
  },
  GKE_CLUSTER: {
    type: 'google_container_cluster',
    provider: 'google',
    args: googleArgs((a) => ({ location: a.region })),
    importId: (a) => `${a.account_id ?? ''}/${a.region}/${a.name}`,
  },
  CLOUD_SQL: {
    type: 'google_sql_database_instance',
    provider: 'google',
    args: googleArgs((a) => ({ region: a.region, ...pick(a, { database_version: ['database_version'] }) })),
    importId: (a) => `${a.account_id ?? ''}/${a.name}`,
  },
};

const PROVIDER_OF: Readonly<Record<string, TerraformProvider>> = {
  AWS: 'aws',
  AZURE: 'azurerm',
  GCP: 'google',
};

/**
 * The mapping for an asset, or undefined when the exporter does not recreate it. The asset's
 * cloud must be the mapping's: a type some clouds share (a VPC on GCP) is not written as
 * another cloud's resource.
 */
export function terraformMapping(
  asset: Pick<CloudAsset, 'asset_type' | 'provider'>,
): TerraformMapping | undefined {
  const mapping = Object.hasOwn(TERRAFORM_MAPPINGS, asset.asset_type)
    ? TERRAFORM_MAPPINGS[asset.asset_type]
    : undefined;
  return mapping && PROVIDER_OF[asset.provider.toUpperCase()] === mapping.provider ? mapping : undefined;
}
