/**
 * Entity hierarchy used when choosing a strategy: a refined entity falls back to its parents.
 */

export const ENTITY_PARENTS: Readonly<Record<string, readonly string[]>> = {
  private_ip: ['ip_address'],
  public_ip: ['ip_address'],
  special_ip: ['ip_address'],
  private_cidr: ['cidr'],
  public_cidr: ['cidr'],
  special_cidr: ['cidr'],
  aws_unique_id: ['aws_access_key_id'],
  azure_tenant_id: ['azure_subscription_id'],
  gcp_project_number: ['gcp_project_id'],
};

/** The entity followed by its parents. */
export function entityChain(entity: string): string[] {
  return [entity, ...(ENTITY_PARENTS[entity] ?? [])];
}
