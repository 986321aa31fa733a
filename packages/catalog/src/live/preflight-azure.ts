import { join } from 'node:path';
import type { AzureConfig } from '../config/schema.js';
import type { PreflightEnvironment } from './preflight-env.js';

export const AZURE_NO_CREDENTIALS =
  "no credentials found (set azure.tenant_id / client_id / client_secret in the cloudg config, AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET in the server's environment, sign in with az login, or run with a managed identity)";

/**
 * The chain DefaultAzureCredential walks, checked locally: the config's service principal, the
 * environment (secret, certificate or federated token), workload identity, the Azure CLI's
 * sign-in, then a managed identity. The reference requested a token; this port has no Azure
 * SDK, so it checks that a source of one is present and answering instead.
 */
export async function checkAzure(
  config: AzureConfig,
  env: PreflightEnvironment,
  signal: AbortSignal,
): Promise<string | null> {
  if (config.client_secret !== undefined) return null;
  const e = env.env;
  if (e.AZURE_CLIENT_ID && e.AZURE_TENANT_ID) {
    if (e.AZURE_CLIENT_SECRET) return null;
    if (e.AZURE_CLIENT_CERTIFICATE_PATH) {
      return (await env.exists(e.AZURE_CLIENT_CERTIFICATE_PATH))
        ? null
        : 'the certificate named by AZURE_CLIENT_CERTIFICATE_PATH does not exist';
    }
    if (e.AZURE_FEDERATED_TOKEN_FILE) {
      return (await env.exists(e.AZURE_FEDERATED_TOKEN_FILE))
        ? null
        : 'the federated token file named by AZURE_FEDERATED_TOKEN_FILE does not exist';
    }
  }
  const cli = e.AZURE_CONFIG_DIR || join(env.homeDir, '.azure');
  if (await env.exists(join(cli, 'msal_token_cache.json'))) return null;
  if (e.IDENTITY_ENDPOINT || e.MSI_ENDPOINT) return null;
  const token = await env.probe(
    {
      url: 'http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https%3A%2F%2Fmanagement.azure.com%2F',
      method: 'GET',
      headers: { Metadata: 'true' },
    },
    signal,
  );
  return token !== null ? null : AZURE_NO_CREDENTIALS;
}
