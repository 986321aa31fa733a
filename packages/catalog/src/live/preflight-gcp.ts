import { join } from 'node:path';
import type { GcpConfig } from '../config/schema.js';
import type { PreflightEnvironment } from './preflight-env.js';

export const GCP_NO_CREDENTIALS =
  "no credentials found (set gcp.credentials_file in the cloudg config, GOOGLE_APPLICATION_CREDENTIALS in the server's environment, run gcloud auth application-default login, or run on Google Cloud with a service account)";

/** Credential file types google-auth-library loads. */
const KEY_TYPES = new Set([
  'service_account',
  'external_account',
  'authorized_user',
  'impersonated_service_account',
]);

async function keyFileProblem(
  env: PreflightEnvironment,
  path: string,
  origin: string,
): Promise<string | null> {
  const text = await env.readText(path);
  if (text === null) return `the credentials file named by ${origin} does not exist or cannot be read`;
  try {
    const parsed = JSON.parse(text) as { type?: unknown };
    if (typeof parsed.type === 'string' && KEY_TYPES.has(parsed.type)) return null;
  } catch {
    // Falls through to the message below.
  }
  return `the credentials file named by ${origin} is not a Google credentials JSON file`;
}

/**
 * Application default credentials, loaded as google-auth-library would: the config's file,
 * GOOGLE_APPLICATION_CREDENTIALS, gcloud's ADC file, then the metadata server.
 */
export async function checkGcp(
  config: GcpConfig,
  env: PreflightEnvironment,
  signal: AbortSignal,
): Promise<string | null> {
  if (config.credentials_file !== undefined)
    return keyFileProblem(env, config.credentials_file, 'gcp.credentials_file');
  const e = env.env;
  if (e.GOOGLE_APPLICATION_CREDENTIALS)
    return keyFileProblem(env, e.GOOGLE_APPLICATION_CREDENTIALS, 'GOOGLE_APPLICATION_CREDENTIALS');
  const gcloud = e.CLOUDSDK_CONFIG || join(env.homeDir, '.config', 'gcloud');
  if (await env.exists(join(gcloud, 'application_default_credentials.json'))) return null;
  const host = e.GCE_METADATA_HOST || '169.254.169.254';
  const email = await env.probe(
    {
      url: `http://${host}/computeMetadata/v1/instance/service-accounts/default/email`,
      method: 'GET',
      headers: { 'Metadata-Flavor': 'Google' },
    },
    signal,
  );
  return email !== null && email.trim() !== '' ? null : GCP_NO_CREDENTIALS;
}
