import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CredentialPreflightError,
  credentialPreflight,
  defaultPreflightEnvironment,
  type PreflightEnvironment,
  parseCloudgConfig,
} from '../../src/index.js';
import { FakeClock } from './fake-clock.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cloudg-preflight-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function environment(over: Partial<PreflightEnvironment> = {}): PreflightEnvironment {
  // No identity endpoint answers unless a test says so: nothing here reaches the network.
  return defaultPreflightEnvironment({ env: {}, homeDir: home, probe: async () => null, ...over });
}

async function failure(p: Promise<void>): Promise<CredentialPreflightError> {
  try {
    await p;
  } catch (error) {
    return error as CredentialPreflightError;
  }
  throw new Error('preflight passed');
}

const never = new AbortController().signal;

describe('credentialPreflight', () => {
  it('no credentials anywhere: each provider is named with its reason, code -32603', async () => {
    const config = parseCloudgConfig({ providers: ['aws', 'azure', 'gcp'] });
    const error = await failure(credentialPreflight(config, ['aws', 'azure', 'gcp'], environment(), never));
    expect(error.code).toBe(-32603);
    const providers = (error.data as { providers: Record<string, string> }).providers;
    expect(Object.keys(providers)).toEqual(['aws', 'azure', 'gcp']);
    expect(providers.aws).toMatch(/^no credentials found \(set aws\.profile/);
    expect(error.message).toMatch(/^Cannot collect live data\. aws: no credentials found/);
    expect(error.message).toMatch(/Pass preflight=false to skip this check\.$/);
  });

  it('a role with a web identity token file that does not exist fails; one that exists passes', async () => {
    const token = join(home, 'token');
    const config = parseCloudgConfig({
      aws: { role_arn: 'arn:aws:iam::123456789012:role/reader', web_identity_token_file: token },
    });
    const error = await failure(credentialPreflight(config, ['aws'], environment(), never));
    expect((error.data as { providers: Record<string, string> }).providers.aws).toBe(
      'the web identity token file named by aws.web_identity_token_file does not exist',
    );
    await writeFile(token, 'eyJ...');
    await expect(credentialPreflight(config, ['aws'], environment(), never)).resolves.toBeUndefined();
  });

  it('environment keys, a shared credentials profile and an instance role each pass for AWS', async () => {
    const config = parseCloudgConfig({});
    const keys = { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' };
    await expect(
      credentialPreflight(config, ['aws'], environment({ env: keys }), never),
    ).resolves.toBeUndefined();
    const file = join(home, 'credentials');
    await writeFile(file, '[prod]\naws_access_key_id = AKIA\naws_secret_access_key = s\n');
    const profile = { AWS_PROFILE: 'prod', AWS_SHARED_CREDENTIALS_FILE: file };
    await expect(
      credentialPreflight(config, ['aws'], environment({ env: profile }), never),
    ).resolves.toBeUndefined();
    const missing = await failure(
      credentialPreflight(config, ['aws'], environment({ env: { ...profile, AWS_PROFILE: 'dev' } }), never),
    );
    expect(JSON.stringify(missing.data)).toContain('profile is not in the shared config');
    const imds: PreflightEnvironment['probe'] = async (r) =>
      r.method === 'PUT' ? 'token' : r.url.endsWith('security-credentials/') ? 'reader-role' : null;
    await expect(
      credentialPreflight(config, ['aws'], environment({ probe: imds }), never),
    ).resolves.toBeUndefined();
  });

  it('an identity endpoint that never answers ends the check at the 25 s bound', async () => {
    const clock = new FakeClock();
    const env = environment({ clock, probe: () => new Promise(() => {}) });
    const pending = failure(credentialPreflight(parseCloudgConfig({}), ['aws'], env, never));
    await new Promise((r) => setTimeout(r, 10));
    clock.advance(24_999);
    await new Promise((r) => setTimeout(r, 10));
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    clock.advance(1);
    const error = await pending;
    expect(error.message).toBe(
      'Credential check did not finish within 25s; the cloud identity endpoints look unreachable. Pass preflight=false to try anyway.',
    );
  });

  it('GCP: a credentials file that is not a Google key fails; gcloud application default credentials pass', async () => {
    const key = join(home, 'key.json');
    await writeFile(key, '{"hello": 1}');
    const error = await failure(
      credentialPreflight(
        parseCloudgConfig({ gcp: { credentials_file: key } }),
        ['gcp'],
        environment(),
        never,
      ),
    );
    expect(JSON.stringify(error.data)).toContain('not a Google credentials JSON file');
    const gcloud = join(home, 'gcloud');
    await rm(gcloud, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(gcloud));
    await writeFile(join(gcloud, 'application_default_credentials.json'), '{"type":"authorized_user"}');
    await expect(
      credentialPreflight(
        parseCloudgConfig({}),
        ['gcp'],
        environment({ env: { CLOUDSDK_CONFIG: gcloud } }),
        never,
      ),
    ).resolves.toBeUndefined();
  });

  it('Azure: a service principal in the environment passes; a missing federated token file is named', async () => {
    const config = parseCloudgConfig({});
    const sp = { AZURE_CLIENT_ID: 'id', AZURE_TENANT_ID: 't', AZURE_CLIENT_SECRET: 's' };
    await expect(
      credentialPreflight(config, ['azure'], environment({ env: sp }), never),
    ).resolves.toBeUndefined();
    const wi = {
      AZURE_CLIENT_ID: 'id',
      AZURE_TENANT_ID: 't',
      AZURE_FEDERATED_TOKEN_FILE: join(home, 'none'),
    };
    const error = await failure(credentialPreflight(config, ['azure'], environment({ env: wi }), never));
    expect(JSON.stringify(error.data)).toContain('AZURE_FEDERATED_TOKEN_FILE does not exist');
  });
});
