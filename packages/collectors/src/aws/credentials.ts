import { readFile } from 'node:fs/promises';
import {
  AssumeRoleCommand,
  AssumeRoleWithWebIdentityCommand,
  GetCallerIdentityCommand,
} from '@aws-sdk/client-sts';
import type { CloudgConfig } from '@cloudg/catalog';
import type { Governor } from '../governor/governor.js';
import { type AwsClientSettings, AwsClients, type AwsCredentials } from './clients.js';

const SESSION_NAME = 'cloudg-inventory';

/** The base client settings from the config's `aws` section; secrets revealed only here. */
export function baseSettings(config: CloudgConfig, overrides: AwsClientSettings = {}): AwsClientSettings {
  const aws = config.aws;
  const settings: AwsClientSettings = { ...overrides };
  if (!settings.credentials && aws.access_key_id && aws.secret_access_key) {
    settings.credentials = {
      accessKeyId: aws.access_key_id,
      secretAccessKey: aws.secret_access_key.reveal(),
      ...(aws.session_token ? { sessionToken: aws.session_token.reveal() } : {}),
    };
  }
  if (!settings.credentials && aws.profile) settings.profile = aws.profile;
  return settings;
}

function fromSts(
  c: { AccessKeyId?: string; SecretAccessKey?: string; SessionToken?: string } | undefined,
): AwsCredentials {
  if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error('STS returned no credentials');
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

/**
 * Credentials for one role: web identity federation when the config names a token file,
 * otherwise `AssumeRole` with the base credentials. The token file is read at call time so a
 * rotated projected token is picked up.
 */
export async function assumeRole(
  roleArn: string,
  base: AwsClientSettings,
  config: CloudgConfig,
  region: string,
  governor: Governor,
  account: string,
  signal: AbortSignal,
): Promise<AwsCredentials> {
  const clients = new AwsClients(base);
  try {
    const sts = clients.get('sts', region);
    const scope = { provider: 'aws', account, region, service: 'sts' } as const;
    if (config.aws.web_identity_token_file) {
      const token = (await readFile(config.aws.web_identity_token_file, 'utf8')).trim();
      const out = await governor.call(
        { ...scope, operation: 'AssumeRoleWithWebIdentity' },
        () =>
          sts.send(
            new AssumeRoleWithWebIdentityCommand({
              RoleArn: roleArn,
              RoleSessionName: SESSION_NAME,
              WebIdentityToken: token,
            }),
            {
              abortSignal: signal,
            },
          ),
        signal,
      );
      return fromSts(out.Credentials);
    }
    const out = await governor.call(
      { ...scope, operation: 'AssumeRole' },
      () =>
        sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: SESSION_NAME }), {
          abortSignal: signal,
        }),
      signal,
    );
    return fromSts(out.Credentials);
  } finally {
    clients.destroy();
  }
}

/** The account and partition the settings authenticate as (`sts:GetCallerIdentity`, no permission needed). */
export async function callerIdentity(
  settings: AwsClientSettings,
  region: string,
  governor: Governor,
  signal: AbortSignal,
): Promise<{ account: string; partition: string }> {
  const clients = new AwsClients(settings);
  try {
    const out = await governor.call(
      { provider: 'aws', account: '*', region, service: 'sts', operation: 'GetCallerIdentity' },
      () => clients.get('sts', region).send(new GetCallerIdentityCommand({}), { abortSignal: signal }),
      signal,
    );
    if (!out.Account) throw new Error('GetCallerIdentity returned no account');
    return { account: out.Account, partition: out.Arn?.split(':')[1] ?? 'aws' };
  } finally {
    clients.destroy();
  }
}
