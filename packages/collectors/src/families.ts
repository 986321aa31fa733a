import type { LiveProvider } from './port.js';

/** The tasks one family selects, per cloud; a cloud with none of its services is left out. */
export type FamilyTasks = Readonly<Partial<Record<LiveProvider, readonly string[]>>>;

/**
 * Which collector tasks each service family of `map_inventory`'s `services` argument selects
 * (MCP_TOOLS.md "Live": all, network, compute, containers, kubernetes, serverless, integration,
 * data, storage, identity, security, dns, iac, logging), for every cloud, in one place: the
 * collectors read it and keep no family of their own, so a name the tool offers cannot drift
 * away from the tasks that serve it.
 *
 * AWS tasks sit in the family the reference's task table gives them (INVENTORY_INTERNALS.md 5.3):
 * KMS and Secrets Manager in `identity`, CloudTrail in `logging`, Lambda in `serverless`. The
 * reference has no family for Organizations (its discovery runs beside the task list); here it is
 * an `identity` task, since SCPs bound what every identity of an account may do. Azure and Google
 * Cloud have no task families in the reference (one Resource Graph or Cloud Asset Inventory sweep
 * each); their tasks go where their AWS counterparts are: Key Vault with KMS and Secrets Manager
 * in `identity`, firewall rules with security groups in `network`. Families no collector serves
 * yet (containers, kubernetes, integration, dns, iac) select nothing, as a family that matches no
 * task does in the reference: it is not an error.
 */
export const SERVICE_FAMILY_TASKS: Readonly<Record<string, FamilyTasks>> = {
  network: { aws: ['vpc', 'elbv2'], azure: ['azure_network'], gcp: ['gcp_network', 'gcp_firewall'] },
  compute: { aws: ['ec2'], azure: ['azure_compute'], gcp: ['gcp_compute'] },
  containers: {},
  kubernetes: {},
  serverless: { aws: ['lambda'] },
  integration: {},
  data: { aws: ['rds', 'dynamodb'], azure: ['azure_sql', 'azure_cosmosdb'], gcp: ['gcp_cloudsql'] },
  storage: { aws: ['s3', 'ebs_volumes'], azure: ['azure_storage'], gcp: ['gcp_storage'] },
  identity: {
    aws: ['iam', 'organizations', 'kms', 'secretsmanager'],
    azure: ['azure_authorization', 'azure_keyvault'],
    gcp: ['gcp_service_accounts', 'gcp_iam_policies'],
  },
  security: { aws: ['guardduty'] },
  dns: {},
  iac: {},
  logging: { aws: ['cloudtrail'] },
};

/**
 * Does the `services` filter select this task of this cloud? No filter, an empty one or `all`
 * selects everything; otherwise a task runs when the filter names it or one of its families.
 */
export function selected(services: readonly string[] | null, provider: LiveProvider, task: string): boolean {
  if (services === null || services.length === 0 || services.includes('all')) return true;
  return services.some(
    (name) =>
      name === task ||
      (Object.hasOwn(SERVICE_FAMILY_TASKS, name) &&
        (SERVICE_FAMILY_TASKS[name]?.[provider] ?? []).includes(task)),
  );
}
