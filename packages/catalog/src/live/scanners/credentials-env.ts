import type { CloudgConfig } from '../../config/schema.js';

/**
 * The environment a cloud scanner runs with: the server's, plus the credentials the cloudg
 * config names, in the variables each cloud's tooling reads. Secrets are revealed only here,
 * into the child's environment; they never reach an argument vector, a log or a result.
 */
export function scannerEnv(config: CloudgConfig, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const { aws, azure, gcp } = config;
  if (aws.access_key_id !== undefined && aws.secret_access_key !== undefined) {
    env.AWS_ACCESS_KEY_ID = aws.access_key_id;
    env.AWS_SECRET_ACCESS_KEY = aws.secret_access_key.reveal();
    if (aws.session_token !== undefined) env.AWS_SESSION_TOKEN = aws.session_token.reveal();
    else delete env.AWS_SESSION_TOKEN;
  }
  if (aws.role_arn !== undefined && aws.web_identity_token_file !== undefined) {
    env.AWS_ROLE_ARN = aws.role_arn;
    env.AWS_WEB_IDENTITY_TOKEN_FILE = aws.web_identity_token_file;
  }
  if (aws.profile !== undefined) env.AWS_PROFILE = aws.profile;
  if (azure.client_id !== undefined && azure.client_secret !== undefined && azure.tenant_id !== undefined) {
    env.AZURE_CLIENT_ID = azure.client_id;
    env.AZURE_TENANT_ID = azure.tenant_id;
    env.AZURE_CLIENT_SECRET = azure.client_secret.reveal();
  }
  if (gcp.credentials_file !== undefined) env.GOOGLE_APPLICATION_CREDENTIALS = gcp.credentials_file;
  return env;
}

/** Whether the Azure scanners should sign in as a service principal from the environment. */
export function azureServicePrincipal(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.AZURE_CLIENT_ID && env.AZURE_TENANT_ID && env.AZURE_CLIENT_SECRET);
}
