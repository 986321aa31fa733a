import { join } from 'node:path';
import type { AwsConfig } from '../config/schema.js';
import type { PreflightEnvironment } from './preflight-env.js';

export const AWS_NO_CREDENTIALS =
  "no credentials found (set aws.profile / access keys in the cloudg config, AWS_PROFILE / AWS_ACCESS_KEY_ID in the server's environment, or run on a host with an instance role)";

/** Keys that make a shared-config profile a source of credentials (keys, roles, SSO, a process). */
const PROFILE_SOURCES = [
  'aws_access_key_id',
  'role_arn',
  'credential_process',
  'sso_session',
  'sso_start_url',
  'web_identity_token_file',
];

/** Keys of one INI section (`[name]`), or null when the section is absent. */
function iniSection(text: string, section: string): Set<string> | null {
  let current: string | null = null;
  let keys: Set<string> | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = header[1] as string;
      if (current === section) keys ??= new Set();
      continue;
    }
    const kv = /^([A-Za-z0-9_]+)\s*=/.exec(line);
    if (kv && current === section && keys) keys.add((kv[1] as string).toLowerCase());
  }
  return keys;
}

async function profileHasCredentials(env: PreflightEnvironment, profile: string): Promise<boolean> {
  const aws = join(env.homeDir, '.aws');
  const credentials = await env.readText(env.env.AWS_SHARED_CREDENTIALS_FILE || join(aws, 'credentials'));
  if (credentials && iniSection(credentials, profile)?.has('aws_access_key_id')) return true;
  const config = await env.readText(env.env.AWS_CONFIG_FILE || join(aws, 'config'));
  if (!config) return false;
  const keys = iniSection(config, profile === 'default' ? 'default' : `profile ${profile}`);
  return keys !== null && PROFILE_SOURCES.some((k) => keys.has(k));
}

/** Instance metadata (IMDSv2): a token, then the name of the instance role. */
async function instanceRole(env: PreflightEnvironment, signal: AbortSignal): Promise<boolean> {
  if ((env.env.AWS_EC2_METADATA_DISABLED ?? '').toLowerCase() === 'true') return false;
  const base = env.env.AWS_EC2_METADATA_SERVICE_ENDPOINT || 'http://169.254.169.254';
  const token = await env.probe(
    {
      url: `${base}/latest/api/token`,
      method: 'PUT',
      headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' },
    },
    signal,
  );
  if (!token) return false;
  const role = await env.probe(
    {
      url: `${base}/latest/meta-data/iam/security-credentials/`,
      method: 'GET',
      headers: { 'X-aws-ec2-metadata-token': token.trim() },
    },
    signal,
  );
  return role !== null && role.trim() !== '';
}

/**
 * The AWS default chain, checked without the SDK: config keys, a config web identity, the
 * environment's keys or web identity, a shared-config profile, the container endpoint, then the
 * instance role. Returns null when credentials were found, else why not.
 */
export async function checkAws(
  config: AwsConfig,
  env: PreflightEnvironment,
  signal: AbortSignal,
): Promise<string | null> {
  if (config.access_key_id !== undefined) return null;
  if (config.role_arn !== undefined && config.web_identity_token_file !== undefined) {
    return (await env.exists(config.web_identity_token_file))
      ? null
      : 'the web identity token file named by aws.web_identity_token_file does not exist';
  }
  const e = env.env;
  if (e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY) return null;
  if (e.AWS_WEB_IDENTITY_TOKEN_FILE && e.AWS_ROLE_ARN) {
    return (await env.exists(e.AWS_WEB_IDENTITY_TOKEN_FILE))
      ? null
      : 'the web identity token file named by AWS_WEB_IDENTITY_TOKEN_FILE does not exist';
  }
  const named = config.profile ?? e.AWS_PROFILE;
  if (await profileHasCredentials(env, named ?? 'default')) return null;
  // A named profile that does not exist stops the SDK's chain there, as boto3 does.
  if (named !== undefined)
    return 'the configured AWS profile is not in the shared config or credentials files';
  if (e.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || e.AWS_CONTAINER_CREDENTIALS_FULL_URI) return null;
  if (await instanceRole(env, signal)) return null;
  return AWS_NO_CREDENTIALS;
}
