/**
 * What differs between the three clouds as far as the generator cares: the asset type that
 * plays each part of a stack, the regions, and how an identifier is spelled (AWS ARNs, Azure
 * resource ids, GCP full resource names: INVENTORY_REFERENCE.md section 4). The stack builders
 * are cloud-neutral and ask a kit for the rest.
 */
import type { Rng } from './random.js';

export type Cloud = 'AWS' | 'AZURE' | 'GCP';
export const CLOUDS: readonly Cloud[] = ['AWS', 'AZURE', 'GCP'];

/** One account, subscription or project. */
export interface Account {
  cloud: Cloud;
  /** AWS account id, Azure subscription id or GCP project id. */
  id: string;
  name: string;
  /** What the account is for; workload accounts carry an environment. */
  role: 'management' | 'log-archive' | 'security' | 'shared-services' | 'workload';
  env: 'prod' | 'staging' | 'dev' | 'shared';
  /** Applications whose stacks run here (they name the assets). */
  apps: string[];
  regions: string[];
  /** Azure resource group the account's resources live in. */
  resourceGroup: string;
  /** GCP project number (secrets are named by it). */
  projectNumber: string;
  /** Id of the CLOUD_ACCOUNT asset, set when it is created. */
  assetId: string;
  /** Where the account sits in its cloud's hierarchy (OU, management group or folder asset id). */
  parentAssetId: string;
  /** Asset budget for this account's own resources. */
  budget: number;
}

export const REGIONS: Record<Cloud, readonly string[]> = {
  AWS: ['us-east-1', 'eu-west-1', 'us-west-2', 'ap-southeast-2'],
  AZURE: ['westeurope', 'eastus', 'northeurope'],
  GCP: ['europe-west1', 'us-central1', 'asia-southeast1'],
};

/** The asset type that plays each part, per cloud. */
export interface Kit {
  cloud: Cloud;
  network: string;
  /** Null on GCP, whose firewall rules land on the instance itself. */
  securityGroup: string | null;
  loadBalancer: string;
  /** Target group (AWS), none (Azure: the load balancer targets VMs), instance group (GCP). */
  pool: string | null;
  vm: string;
  fn: string;
  /** The managed front door of a serverless stack. */
  front: string;
  cluster: string;
  nodes: string;
  identity: string;
  database: readonly string[];
  /** Crown jewels of weight 9 (DynamoDB, warehouses, secrets, key vaults). */
  nine: readonly string[];
  bucket: string;
  key: string;
  secret: string;
  fileSystem: string;
  search: string | null;
  cache: string;
  /** A long-lived credential of an identity (weight 6), where the cloud has one. */
  accessKey: string | null;
  queue: string;
  logs: string;
  disk: string;
}

export const KITS: Record<Cloud, Kit> = {
  AWS: {
    cloud: 'AWS',
    network: 'VPC',
    securityGroup: 'SECURITY_GROUP',
    loadBalancer: 'LOAD_BALANCER',
    pool: 'TARGET_GROUP',
    vm: 'EC2',
    fn: 'LAMBDA_FUNCTION',
    front: 'API_GATEWAY',
    cluster: 'EKS_CLUSTER',
    nodes: 'EKS_NODEGROUP',
    identity: 'IAM_ROLE',
    database: ['RDS_INSTANCE', 'AURORA_CLUSTER'],
    nine: ['DYNAMODB_TABLE', 'REDSHIFT_CLUSTER'],
    bucket: 'S3_BUCKET',
    key: 'KMS_KEY',
    secret: 'SECRET',
    fileSystem: 'EFS_FILE_SYSTEM',
    search: 'OPENSEARCH_DOMAIN',
    cache: 'ELASTICACHE_CLUSTER',
    accessKey: 'IAM_ACCESS_KEY',
    queue: 'MESSAGE_QUEUE',
    logs: 'LOG_GROUP',
    disk: 'EBS_VOLUME',
  },
  AZURE: {
    cloud: 'AZURE',
    network: 'VNET',
    securityGroup: 'NSG',
    loadBalancer: 'APPLICATION_GATEWAY',
    pool: null,
    vm: 'VIRTUAL_MACHINE',
    fn: 'AZURE_FUNCTION',
    front: 'APP_SERVICE',
    cluster: 'AKS_CLUSTER',
    nodes: 'VM_SCALE_SET',
    identity: 'MANAGED_IDENTITY',
    database: ['AZURE_SQL'],
    nine: ['KEY_VAULT', 'DATA_WAREHOUSE'],
    bucket: 'BLOB_STORAGE',
    key: 'KEY_VAULT',
    secret: 'KEY_VAULT',
    fileSystem: 'FILE_SYSTEM',
    search: 'SEARCH_DOMAIN',
    cache: 'CACHE',
    accessKey: null,
    queue: 'SERVICE_BUS',
    logs: 'LOG_ANALYTICS_WORKSPACE',
    disk: 'MANAGED_DISK',
  },
  GCP: {
    cloud: 'GCP',
    network: 'VPC_NETWORK',
    securityGroup: null,
    loadBalancer: 'LOAD_BALANCER',
    pool: 'INSTANCE_GROUP',
    vm: 'GCE_INSTANCE',
    fn: 'CLOUD_FUNCTION',
    front: 'CLOUD_RUN_SERVICE',
    cluster: 'GKE_CLUSTER',
    nodes: 'INSTANCE_GROUP',
    identity: 'SERVICE_ACCOUNT',
    database: ['CLOUD_SQL'],
    nine: ['DATA_WAREHOUSE', 'SECRET'],
    bucket: 'GCS_BUCKET',
    key: 'KMS_KEY',
    secret: 'SECRET',
    fileSystem: 'FILE_SYSTEM',
    search: null,
    cache: 'CACHE',
    accessKey: 'ACCESS_KEY',
    queue: 'PUBSUB_TOPIC',
    logs: 'LOG_SINK',
    disk: 'PERSISTENT_DISK',
  },
};

/** Azure provider namespace and resource type path of each asset type. */
const AZURE_TYPES: Record<string, string> = {
  VNET: 'Microsoft.Network/virtualNetworks',
  NSG: 'Microsoft.Network/networkSecurityGroups',
  ROUTE_TABLE: 'Microsoft.Network/routeTables',
  NETWORK_INTERFACE: 'Microsoft.Network/networkInterfaces',
  PUBLIC_IP: 'Microsoft.Network/publicIPAddresses',
  APPLICATION_GATEWAY: 'Microsoft.Network/applicationGateways',
  AZURE_FIREWALL: 'Microsoft.Network/azureFirewalls',
  VIRTUAL_MACHINE: 'Microsoft.Compute/virtualMachines',
  VM_SCALE_SET: 'Microsoft.Compute/virtualMachineScaleSets',
  MANAGED_DISK: 'Microsoft.Compute/disks',
  AZURE_FUNCTION: 'Microsoft.Web/sites',
  APP_SERVICE: 'Microsoft.Web/sites',
  AKS_CLUSTER: 'Microsoft.ContainerService/managedClusters',
  CONTAINER_REGISTRY: 'Microsoft.ContainerRegistry/registries',
  MANAGED_IDENTITY: 'Microsoft.ManagedIdentity/userAssignedIdentities',
  AZURE_SQL: 'Microsoft.Sql/servers',
  KEY_VAULT: 'Microsoft.KeyVault/vaults',
  STORAGE_ACCOUNT: 'Microsoft.Storage/storageAccounts',
  DATA_WAREHOUSE: 'Microsoft.Synapse/workspaces',
  SEARCH_DOMAIN: 'Microsoft.Search/searchServices',
  CACHE: 'Microsoft.Cache/redis',
  COSMOS_DB: 'Microsoft.DocumentDB/databaseAccounts',
  SERVICE_BUS: 'Microsoft.ServiceBus/namespaces',
  LOG_ANALYTICS_WORKSPACE: 'Microsoft.OperationalInsights/workspaces',
  ALARM: 'Microsoft.Insights/metricAlerts',
  THREAT_DETECTOR: 'Microsoft.Security/pricings',
};

/** GCP API host and collection path of each asset type (`{p}` project, `{r}` region, `{z}` zone). */
const GCP_TYPES: Record<string, string> = {
  VPC_NETWORK: 'compute.googleapis.com/projects/{p}/global/networks',
  SUBNET: 'compute.googleapis.com/projects/{p}/regions/{r}/subnetworks',
  FIREWALL_RULE: 'compute.googleapis.com/projects/{p}/global/firewalls',
  GCE_INSTANCE: 'compute.googleapis.com/projects/{p}/zones/{z}/instances',
  INSTANCE_GROUP: 'compute.googleapis.com/projects/{p}/zones/{z}/instanceGroups',
  LOAD_BALANCER: 'compute.googleapis.com/projects/{p}/global/forwardingRules',
  PERSISTENT_DISK: 'compute.googleapis.com/projects/{p}/zones/{z}/disks',
  ROUTE_TABLE: 'compute.googleapis.com/projects/{p}/global/routes',
  NAT_GATEWAY: 'compute.googleapis.com/projects/{p}/regions/{r}/routers',
  CLOUD_FUNCTION: 'cloudfunctions.googleapis.com/projects/{p}/locations/{r}/functions',
  CLOUD_RUN_SERVICE: 'run.googleapis.com/projects/{p}/locations/{r}/services',
  GKE_CLUSTER: 'container.googleapis.com/projects/{p}/locations/{r}/clusters',
  CONTAINER_REGISTRY: 'artifactregistry.googleapis.com/projects/{p}/locations/{r}/repositories',
  CLOUD_SQL: 'cloudsql.googleapis.com/projects/{p}/instances',
  DATA_WAREHOUSE: 'bigquery.googleapis.com/projects/{p}/datasets',
  SECRET: 'secretmanager.googleapis.com/projects/{n}/secrets',
  CACHE: 'redis.googleapis.com/projects/{p}/locations/{r}/instances',
  FILE_SYSTEM: 'file.googleapis.com/projects/{p}/locations/{z}/instances',
  PUBSUB_TOPIC: 'pubsub.googleapis.com/projects/{p}/topics',
  LOG_SINK: 'logging.googleapis.com/projects/{p}/sinks',
  ALARM: 'monitoring.googleapis.com/projects/{p}/alertPolicies',
  THREAT_DETECTOR: 'securitycenter.googleapis.com/projects/{p}/settings',
  VPC_PEERING: 'compute.googleapis.com/projects/{p}/global/networks/peerings',
};

/** AWS service and resource prefix of each asset type: `[service, resource form]`. */
const AWS_TYPES: Record<string, readonly [string, string]> = {
  VPC: ['ec2', 'vpc/vpc-{h}'],
  SUBNET: ['ec2', 'subnet/subnet-{h}'],
  ROUTE_TABLE: ['ec2', 'route-table/rtb-{h}'],
  INTERNET_GATEWAY: ['ec2', 'internet-gateway/igw-{h}'],
  NAT_GATEWAY: ['ec2', 'natgateway/nat-{h}'],
  TRANSIT_GATEWAY: ['ec2', 'transit-gateway/tgw-{h}'],
  VPC_PEERING: ['ec2', 'vpc-peering-connection/pcx-{h}'],
  SECURITY_GROUP: ['ec2', 'security-group/sg-{h}'],
  NACL: ['ec2', 'network-acl/acl-{h}'],
  EC2: ['ec2', 'instance/i-{h}'],
  EBS_VOLUME: ['ec2', 'volume/vol-{h}'],
  LOAD_BALANCER: ['elasticloadbalancing', 'loadbalancer/app/{n}/{h16}'],
  TARGET_GROUP: ['elasticloadbalancing', 'targetgroup/{n}/{h16}'],
  LAMBDA_FUNCTION: ['lambda', 'function:{n}'],
  EKS_CLUSTER: ['eks', 'cluster/{n}'],
  EKS_NODEGROUP: ['eks', 'nodegroup/{n}/{h16}'],
  ECS_CLUSTER: ['ecs', 'cluster/{n}'],
  ECS_SERVICE: ['ecs', 'service/{n}'],
  CONTAINER_REGISTRY: ['ecr', 'repository/{n}'],
  RDS_INSTANCE: ['rds', 'db:{n}'],
  AURORA_CLUSTER: ['rds', 'cluster:{n}'],
  DYNAMODB_TABLE: ['dynamodb', 'table/{n}'],
  REDSHIFT_CLUSTER: ['redshift', 'cluster:{n}'],
  SECRET: ['secretsmanager', 'secret:{n}-{h6}'],
  KMS_KEY: ['kms', 'key/{u}'],
  EFS_FILE_SYSTEM: ['elasticfilesystem', 'file-system/fs-{h}'],
  OPENSEARCH_DOMAIN: ['es', 'domain/{n}'],
  ELASTICACHE_CLUSTER: ['elasticache', 'cluster:{n}'],
  MESSAGE_QUEUE: ['sqs', '{n}'],
  LOG_GROUP: ['logs', 'log-group:/app/{n}'],
  ALARM: ['cloudwatch', 'alarm:{n}'],
  THREAT_DETECTOR: ['guardduty', 'detector/{h}'],
};

/** Global AWS types: no region in the ARN. */
const AWS_GLOBAL: Record<string, string> = {
  IAM_ROLE: 'role/{n}',
  IAM_USER: 'user/{n}',
  IAM_POLICY: 'policy/{n}',
  INSTANCE_PROFILE: 'instance-profile/{n}',
  OIDC_PROVIDER: 'oidc-provider/{n}',
};

const K8S_KINDS: Record<string, string> = {
  K8S_NAMESPACE: 'Namespace',
  K8S_WORKLOAD: 'Deployment',
  K8S_SERVICE: 'Service',
  K8S_INGRESS: 'Ingress',
  K8S_SERVICE_ACCOUNT: 'ServiceAccount',
};

function fill(template: string, rng: Rng, name: string): string {
  return template
    .replace('{n}', name)
    .replace('{h16}', rng.hex(16))
    .replace('{h6}', rng.hex(6))
    .replace('{h}', rng.hex(17))
    .replace('{u}', rng.uuid());
}

/** A zone of a GCP region. */
export function gcpZone(region: string, rng: Rng): string {
  return `${region}-${rng.pick(['a', 'b', 'c'])}`;
}

/**
 * The stable identifier (`arn`) of a new asset, spelled as that cloud's collector spells it.
 * `parent` is the identifier of the resource a sub-resource lives under (a subnet's VNet, a
 * blob container's storage account, a Kubernetes object's cluster).
 */
export function identifierFor(
  account: Account,
  type: string,
  region: string,
  name: string,
  rng: Rng,
  parent?: string,
): string {
  if (type.startsWith('K8S_')) {
    // `k8s://<cluster>/<namespace>/<Kind>/<name>`; `parent` is `<cluster>/<namespace>`.
    return `k8s://${parent ?? `${account.id}/default`}/${K8S_KINDS[type] ?? 'Object'}/${name}`;
  }
  switch (account.cloud) {
    case 'AWS': {
      if (type === 'S3_BUCKET') return `arn:aws:s3:::${name}`;
      if (type === 'API_GATEWAY') return `arn:aws:apigateway:${region}::/restapis/${rng.hex(10)}`;
      if (type === 'IAM_ACCESS_KEY') return `cloudg:aws:iam:global:${account.id}:access-key/${name}`;
      const global = AWS_GLOBAL[type];
      if (global) return `arn:aws:iam::${account.id}:${fill(global, rng, name)}`;
      const [service, resource] = AWS_TYPES[type] ?? ['ec2', `${type.toLowerCase()}/{n}`];
      return `arn:aws:${service}:${region}:${account.id}:${fill(resource, rng, name)}`;
    }
    case 'AZURE': {
      if (parent && type === 'SUBNET') return `${parent}/subnets/${name}`;
      if (parent && type === 'BLOB_STORAGE') return `${parent}/blobServices/default/containers/${name}`;
      if (parent && type === 'FILE_SYSTEM') return `${parent}/fileServices/default/shares/${name}`;
      if (parent && type === 'SQL_DATABASE') return `${parent}/databases/${name}`;
      if (parent && type === 'VPC_PEERING') return `${parent}/virtualNetworkPeerings/${name}`;
      const path = AZURE_TYPES[type] ?? `Microsoft.Resources/${type.toLowerCase()}`;
      return `/subscriptions/${account.id}/resourceGroups/${account.resourceGroup}/providers/${path}/${name}`;
    }
    case 'GCP': {
      if (type === 'GCS_BUCKET') return `//storage.googleapis.com/projects/_/buckets/${name}`;
      if (type === 'SERVICE_ACCOUNT')
        return `//iam.googleapis.com/projects/${account.id}/serviceAccounts/${name}@${account.id}.iam.gserviceaccount.com`;
      if (type === 'ACCESS_KEY') return `${parent ?? account.id}/keys/${rng.hex(40)}`;
      if (type === 'KMS_KEY')
        return `//cloudkms.googleapis.com/projects/${account.id}/locations/${region}/keyRings/${account.name}/cryptoKeys/${name}`;
      const path = GCP_TYPES[type] ?? `cloudasset.googleapis.com/projects/{p}/${type.toLowerCase()}`;
      const filled = path
        .replace('{p}', account.id)
        .replace('{n}', account.projectNumber)
        .replace('{r}', region)
        .replace('{z}', gcpZone(region, rng));
      return `//${filled}/${name}`;
    }
  }
}
