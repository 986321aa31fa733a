/**
 * The asset type catalogue the meta tools explain: every type grouped by family, with the
 * hand-picked ontology class name the ontology reads (src/ontology/classes.ts, which may still
 * override it; `explain_asset_type` reports the ontology's answer, not this column) and the
 * Terraform resource that would recreate it. Asset types are
 * open in the data model (a collector may add one), so this is the documented vocabulary, not a
 * validator of loaded data.
 */
import { CROWN_JEWEL_WEIGHTS } from '../../../conventions/risk.js';

/** `[type, ontology class, terraform resource type or null, note]`. */
type Row = readonly [string, string, string | null, string?];

const FAMILIES: ReadonlyArray<readonly [string, readonly Row[]]> = [
  [
    'Compute',
    [
      // The reference's ontology names the class of all three `cm:ComputeInstance`.
      ['EC2', 'cm:ComputeInstance', 'aws_instance'],
      ['VIRTUAL_MACHINE', 'cm:ComputeInstance', 'azurerm_linux_virtual_machine', 'Azure virtual machine'],
      ['GCE_INSTANCE', 'cm:ComputeInstance', 'google_compute_instance'],
      ['LAMBDA_FUNCTION', 'cm:ServerlessFunction', 'aws_lambda_function'],
      ['CLOUD_FUNCTION', 'cm:ServerlessFunction', 'google_cloudfunctions_function'],
      ['AZURE_FUNCTION', 'cm:ServerlessFunction', 'azurerm_function_app'],
      ['AUTO_SCALING_GROUP', 'cm:ComputeGroup', 'aws_autoscaling_group'],
      ['LAUNCH_TEMPLATE', 'cm:ComputeTemplate', 'aws_launch_template'],
      ['VM_SCALE_SET', 'cm:ComputeGroup', 'azurerm_linux_virtual_machine_scale_set'],
      ['INSTANCE_GROUP', 'cm:ComputeGroup', 'google_compute_instance_group_manager'],
      ['APP_SERVICE', 'cm:ApplicationHost', 'azurerm_linux_web_app'],
      ['CLOUD_RUN_SERVICE', 'cm:ServerlessContainer', 'google_cloud_run_service'],
      ['ELASTIC_BEANSTALK_ENV', 'cm:ApplicationHost', 'aws_elastic_beanstalk_environment'],
      ['BATCH_COMPUTE_ENV', 'cm:ComputeGroup', 'aws_batch_compute_environment'],
      ['MACHINE_IMAGE', 'cm:Image', 'aws_ami', 'AMI, managed image or GCE image'],
    ],
  ],
  [
    'Containers',
    [
      ['ECS_CLUSTER', 'cm:ContainerCluster', 'aws_ecs_cluster'],
      ['ECS_SERVICE', 'cm:ContainerService', 'aws_ecs_service'],
      ['ECS_TASK_DEFINITION', 'cm:ContainerTemplate', 'aws_ecs_task_definition'],
      ['EKS_CLUSTER', 'cm:KubernetesCluster', 'aws_eks_cluster'],
      ['EKS_NODEGROUP', 'cm:ComputeGroup', 'aws_eks_node_group'],
      ['AKS_CLUSTER', 'cm:KubernetesCluster', 'azurerm_kubernetes_cluster'],
      ['GKE_CLUSTER', 'cm:KubernetesCluster', 'google_container_cluster'],
      ['CONTAINER_SERVICE', 'cm:ContainerService', 'azurerm_container_group', 'container instances and apps'],
      ['CONTAINER_REGISTRY', 'cm:ContainerRegistry', 'aws_ecr_repository'],
    ],
  ],
  [
    'Kubernetes',
    [
      ['K8S_NAMESPACE', 'cm:KubernetesNamespace', 'kubernetes_namespace'],
      [
        'K8S_WORKLOAD',
        'cm:KubernetesWorkload',
        'kubernetes_deployment',
        'deployment, stateful set, daemon set or job',
      ],
      ['K8S_SERVICE', 'cm:KubernetesService', 'kubernetes_service'],
      ['K8S_INGRESS', 'cm:KubernetesIngress', 'kubernetes_ingress_v1'],
      ['K8S_SERVICE_ACCOUNT', 'cm:ServiceAccount', 'kubernetes_service_account'],
      ['K8S_ROLE', 'cm:KubernetesRole', 'kubernetes_role', 'role or cluster role'],
      ['K8S_ROLE_BINDING', 'cm:KubernetesRoleBinding', 'kubernetes_role_binding'],
    ],
  ],
  [
    'Networking',
    [
      ['VPC', 'cm:VirtualNetwork', 'aws_vpc'],
      ['VNET', 'cm:VirtualNetwork', 'azurerm_virtual_network'],
      ['VPC_NETWORK', 'cm:VirtualNetwork', 'google_compute_network', 'GCP VPC network'],
      ['SUBNET', 'cm:Subnet', 'aws_subnet'],
      ['ROUTE_TABLE', 'cm:RouteTable', 'aws_route_table'],
      ['INTERNET_GATEWAY', 'cm:Gateway', 'aws_internet_gateway'],
      ['NAT_GATEWAY', 'cm:Gateway', 'aws_nat_gateway'],
      ['TRANSIT_GATEWAY', 'cm:Gateway', 'aws_ec2_transit_gateway'],
      ['VPN_GATEWAY', 'cm:Gateway', 'aws_vpn_gateway'],
      ['VPC_PEERING', 'cm:NetworkPeering', 'aws_vpc_peering_connection'],
      ['VPC_ENDPOINT', 'cm:PrivateEndpoint', 'aws_vpc_endpoint', 'VPC endpoint or private endpoint'],
      ['NETWORK_INTERFACE', 'cm:NetworkInterface', 'aws_network_interface'],
      ['ELASTIC_IP', 'cm:PublicAddress', 'aws_eip'],
      ['PUBLIC_IP', 'cm:PublicAddress', 'azurerm_public_ip'],
      ['DIRECT_CONNECT', 'cm:Gateway', 'aws_dx_connection'],
    ],
  ],
  [
    'Network security',
    [
      ['SECURITY_GROUP', 'cm:SecurityGroup', 'aws_security_group'],
      ['NSG', 'cm:SecurityGroup', 'azurerm_network_security_group', 'Azure network security group'],
      ['NACL', 'cm:NetworkAcl', 'aws_network_acl'],
      ['FIREWALL_RULE', 'cm:FirewallRule', 'google_compute_firewall', 'GCP VPC firewall rule'],
      ['NETWORK_FIREWALL', 'cm:Firewall', 'aws_networkfirewall_firewall'],
      ['AZURE_FIREWALL', 'cm:Firewall', 'azurerm_firewall'],
      ['WAF_WEB_ACL', 'cm:WebApplicationFirewall', 'aws_wafv2_web_acl'],
      ['SHIELD_PROTECTION', 'cm:DdosProtection', 'aws_shield_protection'],
      ['DDOS_PROTECTION_PLAN', 'cm:DdosProtection', 'azurerm_network_ddos_protection_plan'],
    ],
  ],
  [
    'Load balancing and edge',
    [
      ['LOAD_BALANCER', 'cm:LoadBalancer', 'aws_lb'],
      ['TARGET_GROUP', 'cm:TargetGroup', 'aws_lb_target_group'],
      ['API_GATEWAY', 'cm:ApiGateway', 'aws_api_gateway_rest_api'],
      ['CDN_DISTRIBUTION', 'cm:ContentDelivery', 'aws_cloudfront_distribution'],
      ['APPLICATION_GATEWAY', 'cm:LoadBalancer', 'azurerm_application_gateway'],
      ['FRONT_DOOR', 'cm:ContentDelivery', 'azurerm_cdn_frontdoor_profile'],
    ],
  ],
  [
    'DNS',
    [
      ['DNS_ZONE', 'cm:DnsZone', 'aws_route53_zone'],
      ['DNS_RECORD', 'cm:DnsRecord', 'aws_route53_record'],
    ],
  ],
  [
    'Storage',
    [
      ['S3_BUCKET', 'cm:ObjectStorage', 'aws_s3_bucket'],
      ['GCS_BUCKET', 'cm:ObjectStorage', 'google_storage_bucket'],
      ['BLOB_STORAGE', 'cm:ObjectStorage', 'azurerm_storage_container', 'Azure blob container'],
      ['STORAGE_ACCOUNT', 'cm:ObjectStorage', 'azurerm_storage_account'],
      ['EBS_VOLUME', 'cm:BlockStorage', 'aws_ebs_volume'],
      ['MANAGED_DISK', 'cm:BlockStorage', 'azurerm_managed_disk'],
      ['PERSISTENT_DISK', 'cm:BlockStorage', 'google_compute_disk'],
      ['SNAPSHOT', 'cm:Snapshot', 'aws_ebs_snapshot', 'volume or database snapshot'],
      ['EFS_FILE_SYSTEM', 'cm:FileSystem', 'aws_efs_file_system'],
      ['FILE_SYSTEM', 'cm:FileSystem', 'azurerm_storage_share', 'file shares and Filestore'],
      ['BACKUP_VAULT', 'cm:BackupVault', 'aws_backup_vault'],
    ],
  ],
  [
    'Database',
    [
      ['RDS_INSTANCE', 'cm:RelationalDatabase', 'aws_db_instance'],
      ['RDS_CLUSTER', 'cm:RelationalDatabase', 'aws_rds_cluster'],
      ['AURORA_CLUSTER', 'cm:RelationalDatabase', 'aws_rds_cluster'],
      ['AZURE_SQL', 'cm:RelationalDatabase', 'azurerm_mssql_server', 'Azure SQL server'],
      ['SQL_DATABASE', 'cm:RelationalDatabase', 'azurerm_mssql_database'],
      ['CLOUD_SQL', 'cm:RelationalDatabase', 'google_sql_database_instance'],
      ['DYNAMODB_TABLE', 'cm:KeyValueStore', 'aws_dynamodb_table'],
      ['COSMOS_DB', 'cm:DocumentDatabase', 'azurerm_cosmosdb_account'],
      ['FIRESTORE', 'cm:DocumentDatabase', 'google_firestore_database'],
      ['BIGTABLE', 'cm:KeyValueStore', 'google_bigtable_instance'],
      ['SPANNER', 'cm:RelationalDatabase', 'google_spanner_instance'],
      ['DOCUMENTDB_CLUSTER', 'cm:DocumentDatabase', 'aws_docdb_cluster'],
    ],
  ],
  [
    'Analytics',
    [
      ['DATA_WAREHOUSE', 'cm:DataWarehouse', null, 'generic warehouse (BigQuery dataset, Synapse pool)'],
      ['REDSHIFT_CLUSTER', 'cm:DataWarehouse', 'aws_redshift_cluster'],
      ['BIGQUERY_DATASET', 'cm:DataWarehouse', 'google_bigquery_dataset'],
      ['SYNAPSE_WORKSPACE', 'cm:DataWarehouse', 'azurerm_synapse_workspace'],
      ['GLUE_DATABASE', 'cm:DataCatalog', 'aws_glue_catalog_database'],
      ['GLUE_JOB', 'cm:DataPipeline', 'aws_glue_job'],
      ['ATHENA_WORKGROUP', 'cm:QueryEngine', 'aws_athena_workgroup'],
      ['EMR_CLUSTER', 'cm:DataProcessingCluster', 'aws_emr_cluster'],
      ['DATA_FACTORY', 'cm:DataPipeline', 'azurerm_data_factory'],
    ],
  ],
  [
    'Cache and search',
    [
      ['ELASTICACHE_CLUSTER', 'cm:Cache', 'aws_elasticache_cluster'],
      ['CACHE', 'cm:Cache', 'azurerm_redis_cache', 'Azure Cache for Redis, Memorystore'],
      ['SEARCH_DOMAIN', 'cm:SearchIndex', null, 'generic search service'],
      ['OPENSEARCH_DOMAIN', 'cm:SearchIndex', 'aws_opensearch_domain'],
    ],
  ],
  [
    'Messaging and events',
    [
      ['MESSAGE_QUEUE', 'cm:MessageQueue', 'aws_sqs_queue'],
      ['NOTIFICATION_TOPIC', 'cm:Topic', 'aws_sns_topic'],
      ['EVENT_BUS', 'cm:EventBus', 'aws_cloudwatch_event_bus'],
      ['EVENT_RULE', 'cm:EventRule', 'aws_cloudwatch_event_rule'],
      ['STREAM', 'cm:Stream', 'aws_kinesis_stream', 'Kinesis, Event Hubs'],
      ['SERVICE_BUS', 'cm:MessageQueue', 'azurerm_servicebus_namespace'],
      ['PUBSUB_TOPIC', 'cm:Topic', 'google_pubsub_topic'],
      ['PUBSUB_SUBSCRIPTION', 'cm:Subscription', 'google_pubsub_subscription'],
      ['STATE_MACHINE', 'cm:Workflow', 'aws_sfn_state_machine', 'Step Functions, Logic Apps, Workflows'],
    ],
  ],
  [
    'Identity and access',
    [
      ['IAM_ROLE', 'cm:Role', 'aws_iam_role'],
      ['IAM_USER', 'cm:User', 'aws_iam_user'],
      ['IAM_GROUP', 'cm:Group', 'aws_iam_group'],
      ['IAM_POLICY', 'cm:Policy', 'aws_iam_policy'],
      ['IAM_ACCESS_KEY', 'cm:AccessKey', 'aws_iam_access_key'],
      ['ACCESS_KEY', 'cm:AccessKey', null, 'long-lived key of a user or service account'],
      ['INSTANCE_PROFILE', 'cm:InstanceProfile', 'aws_iam_instance_profile'],
      ['SERVICE_ACCOUNT', 'cm:ServiceAccount', 'google_service_account'],
      ['MANAGED_IDENTITY', 'cm:ServiceAccount', 'azurerm_user_assigned_identity'],
      ['SERVICE_PRINCIPAL', 'cm:ServicePrincipal', 'azuread_service_principal', 'Entra application identity'],
      ['IDENTITY_USER', 'cm:User', 'azuread_user', 'Entra or Workspace user'],
      ['IDENTITY_GROUP', 'cm:Group', 'azuread_group'],
      [
        'ROLE_ASSIGNMENT',
        'cm:RoleBinding',
        'azurerm_role_assignment',
        'Azure role assignment, GCP IAM binding',
      ],
      ['OIDC_PROVIDER', 'cm:IdentityProvider', 'aws_iam_openid_connect_provider'],
      ['SAML_PROVIDER', 'cm:IdentityProvider', 'aws_iam_saml_provider'],
      ['PERMISSION_SET', 'cm:Policy', 'aws_ssoadmin_permission_set', 'IAM Identity Center permission set'],
      ['USER_POOL', 'cm:IdentityProvider', 'aws_cognito_user_pool'],
    ],
  ],
  [
    'Secrets and keys',
    [
      ['SECRET', 'cm:Secret', 'aws_secretsmanager_secret'],
      ['KMS_KEY', 'cm:EncryptionKey', 'aws_kms_key'],
      ['KEY_VAULT', 'cm:KeyVault', 'azurerm_key_vault'],
      ['CERTIFICATE', 'cm:Certificate', 'aws_acm_certificate'],
      ['SSM_PARAMETER', 'cm:Parameter', 'aws_ssm_parameter'],
    ],
  ],
  [
    'Logging and monitoring',
    [
      ['LOG_GROUP', 'cm:LogStore', 'aws_cloudwatch_log_group'],
      ['AUDIT_TRAIL', 'cm:AuditTrail', 'aws_cloudtrail', 'CloudTrail trail, activity log export'],
      ['FLOW_LOG', 'cm:FlowLog', 'aws_flow_log'],
      ['ALARM', 'cm:Alarm', 'aws_cloudwatch_metric_alarm'],
      ['LOG_ANALYTICS_WORKSPACE', 'cm:LogStore', 'azurerm_log_analytics_workspace'],
      ['LOG_SINK', 'cm:LogSink', 'google_logging_project_sink'],
      ['DIAGNOSTIC_SETTING', 'cm:LogSink', 'azurerm_monitor_diagnostic_setting'],
      ['CONFIG_RECORDER', 'cm:ConfigurationRecorder', 'aws_config_configuration_recorder'],
    ],
  ],
  [
    'Security services',
    [
      ['SECURITY_HUB', 'cm:SecurityPostureService', 'aws_securityhub_account'],
      [
        'THREAT_DETECTOR',
        'cm:ThreatDetection',
        'aws_guardduty_detector',
        'GuardDuty, Defender, SCC threat detection',
      ],
      [
        'VULNERABILITY_SCANNER',
        'cm:VulnerabilityScanner',
        'aws_inspector2_enabler',
        'Inspector and equivalents',
      ],
      ['ACCESS_ANALYZER', 'cm:AccessAnalyzer', 'aws_accessanalyzer_analyzer'],
      ['DATA_CLASSIFIER', 'cm:DataClassification', 'aws_macie2_account', 'Macie, Purview'],
      ['SECURITY_SERVICE_GAP', 'cm:SecurityGap', null, 'a security service that is expected but not enabled'],
    ],
  ],
  [
    'Organization and accounts',
    [
      ['ORGANIZATION', 'cm:Organization', 'aws_organizations_organization'],
      ['ORG_UNIT', 'cm:OrganizationalUnit', 'aws_organizations_organizational_unit'],
      [
        'CLOUD_ACCOUNT',
        'cm:Account',
        'aws_organizations_account',
        'AWS account, Azure subscription, GCP project',
      ],
      ['MANAGEMENT_GROUP', 'cm:OrganizationalUnit', 'azurerm_management_group'],
      ['RESOURCE_GROUP', 'cm:ResourceGroup', 'azurerm_resource_group'],
      ['FOLDER', 'cm:OrganizationalUnit', 'google_folder'],
      ['LANDING_ZONE', 'cm:LandingZone', 'aws_controltower_landing_zone'],
    ],
  ],
  [
    'Governance policies',
    [
      ['SERVICE_CONTROL_POLICY', 'cm:GuardrailPolicy', 'aws_organizations_policy'],
      ['RESOURCE_CONTROL_POLICY', 'cm:GuardrailPolicy', 'aws_organizations_policy'],
      ['TAG_POLICY', 'cm:GovernancePolicy', 'aws_organizations_policy'],
      ['BACKUP_POLICY', 'cm:GovernancePolicy', 'aws_organizations_policy'],
      ['ORG_POLICY', 'cm:GuardrailPolicy', 'google_org_policy_policy', 'any organization-level guardrail'],
      ['AZURE_POLICY', 'cm:GuardrailPolicy', 'azurerm_policy_assignment'],
      ['CONTROL', 'cm:GuardrailPolicy', 'aws_controltower_control', 'Control Tower control'],
    ],
  ],
  [
    'Management and deployment',
    [
      ['CLOUDFORMATION_STACK', 'cm:Deployment', 'aws_cloudformation_stack'],
      ['DEPLOYMENT', 'cm:Deployment', 'azurerm_resource_group_template_deployment'],
      ['SSM_DOCUMENT', 'cm:Automation', 'aws_ssm_document'],
      ['AUTOMATION_ACCOUNT', 'cm:Automation', 'azurerm_automation_account'],
    ],
  ],
  [
    'Developer tools',
    [
      ['BUILD_PROJECT', 'cm:BuildProject', 'aws_codebuild_project'],
      ['PIPELINE', 'cm:DeliveryPipeline', 'aws_codepipeline'],
      ['CODE_REPOSITORY', 'cm:CodeRepository', 'aws_codecommit_repository'],
    ],
  ],
  [
    'AI and machine learning',
    [
      ['ML_NOTEBOOK', 'cm:Notebook', 'aws_sagemaker_notebook_instance'],
      ['ML_ENDPOINT', 'cm:ModelEndpoint', 'aws_sagemaker_endpoint'],
      ['ML_MODEL', 'cm:Model', 'aws_sagemaker_model'],
      ['AI_SERVICE', 'cm:AiService', 'azurerm_cognitive_account', 'Bedrock, Azure AI, Vertex AI'],
    ],
  ],
  ['Other', [['OTHER', 'cm:Resource', null, 'anything the collectors could not classify']]],
];

/** Data stores the reachability analysis treats as sensitive targets. */
const SENSITIVE_DATA_STORES: ReadonlySet<string> = new Set([
  'RDS_INSTANCE',
  'RDS_CLUSTER',
  'AURORA_CLUSTER',
  'AZURE_SQL',
  'SQL_DATABASE',
  'CLOUD_SQL',
  'DYNAMODB_TABLE',
  'COSMOS_DB',
  'FIRESTORE',
  'BIGTABLE',
  'SPANNER',
  'DOCUMENTDB_CLUSTER',
  'DATA_WAREHOUSE',
  'REDSHIFT_CLUSTER',
  'BIGQUERY_DATASET',
  'S3_BUCKET',
  'GCS_BUCKET',
  'BLOB_STORAGE',
  'STORAGE_ACCOUNT',
  'EFS_FILE_SYSTEM',
  'FILE_SYSTEM',
  'ELASTICACHE_CLUSTER',
  'CACHE',
  'OPENSEARCH_DOMAIN',
  'SEARCH_DOMAIN',
  'SECRET',
  'KEY_VAULT',
  'SSM_PARAMETER',
  'BACKUP_VAULT',
  'SNAPSHOT',
]);

/** Types whose job is to face the internet, so an exposure flag on them is not a finding by itself. */
const EXPOSURE_EXPECTED: ReadonlySet<string> = new Set([
  'LOAD_BALANCER',
  'API_GATEWAY',
  'CDN_DISTRIBUTION',
  'APPLICATION_GATEWAY',
  'FRONT_DOOR',
  'DNS_ZONE',
  'DNS_RECORD',
  'K8S_INGRESS',
  'INTERNET_GATEWAY',
  'NAT_GATEWAY',
  'VPN_GATEWAY',
  'ELASTIC_IP',
  'PUBLIC_IP',
  'WAF_WEB_ACL',
  'USER_POOL',
]);

export interface AssetTypeInfo {
  asset_type: string;
  family: string;
  note: string | null;
  ontology_class: string;
  terraform_type: string | null;
  sensitive_data_store: boolean;
  crown_jewel_weight: number;
  internet_exposure_expected: boolean;
}

const BY_TYPE = new Map<string, AssetTypeInfo>();
for (const [family, rows] of FAMILIES) {
  for (const [type, ontologyClass, terraform, note] of rows) {
    BY_TYPE.set(type, {
      asset_type: type,
      family,
      note: note ?? null,
      ontology_class: ontologyClass,
      terraform_type: terraform,
      sensitive_data_store: SENSITIVE_DATA_STORES.has(type),
      crown_jewel_weight: CROWN_JEWEL_WEIGHTS[type] ?? 0,
      internet_exposure_expected: EXPOSURE_EXPECTED.has(type),
    });
  }
}

/** Every documented asset type, in catalogue order (compute first). */
export const ASSET_TYPES: readonly string[] = [...BY_TYPE.keys()];

/** Family heading -> the types in it, in catalogue order. */
export function assetTypesByFamily(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [family, rows] of FAMILIES) out[family] = rows.map((row) => row[0]);
  return out;
}

/** What the catalogue says about one type (already canonical), or undefined. */
export function assetTypeInfo(type: string): AssetTypeInfo | undefined {
  const info = BY_TYPE.get(type);
  return info ? { ...info } : undefined;
}
