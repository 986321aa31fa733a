import type { TokenCredential } from '@azure/core-auth';
import { ClientSecretCredential, DefaultAzureCredential } from '@azure/identity';
import type { CloudgConfig } from '@cloudg/catalog';

/**
 * The credential the config's `azure` section describes: a service principal's client secret
 * (revealed only here), else the default chain (environment, workload identity, managed identity
 * with `client_id` as a user-assigned identity, Azure CLI).
 */
export function credentialFromConfig(config: CloudgConfig): TokenCredential {
  const azure = config.azure;
  if (azure.client_secret && azure.client_id && azure.tenant_id)
    return new ClientSecretCredential(azure.tenant_id, azure.client_id, azure.client_secret.reveal());
  return new DefaultAzureCredential({
    ...(azure.client_id ? { managedIdentityClientId: azure.client_id } : {}),
    ...(azure.tenant_id ? { tenantId: azure.tenant_id } : {}),
  });
}
