/**
 * Cloud and infrastructure providers' keys and tokens (beyond the AWS, Azure and Google ones
 * listed in builtin.ts): formats from gitleaks' rules and trufflehog's detectors, patterns our own.
 */
import { decodesTo, isBase64Json, isBech32 } from '../checks.js';
import { define, labelled, token } from '../define.js';
import type { Detector } from '../types.js';
import { isPlaceholderToken } from '../validators.js';

export function cloudDetectors(): Detector[] {
  return [
    // Long-lived keys are `ABSK` and base64 of `BedrockAPIKey-...`; short-lived ones are a
    // presigned request, base64 after `bedrock-api-key-`.
    define({
      name: 'aws_bedrock_api_key',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.95,
      pattern: String.raw`(?<![A-Za-z0-9+/%_-])(?:ABSK[A-Za-z0-9+/]{100,400}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]{20,4000})(?![A-Za-z0-9+/=%_-])`,
      hints: ['absk', 'bedrock-api-key-'],
      minLength: 104,
      validate: (v) =>
        v.startsWith('bedrock-api-key-') ||
        (decodesTo(v.slice(4), 'BedrockAPIKey-') && !isPlaceholderToken(v.slice(4)))
          ? 'api_token'
          : null,
    }),
    token({
      name: 'azure_ad_client_secret',
      entity: 'secret_value',
      prefix: String.raw`[A-Za-z0-9_~.]{3}\dQ~`,
      body: '[A-Za-z0-9_~.-]{31,34}',
      before: 'A-Za-z0-9_~.-',
      after: 'A-Za-z0-9_~.-',
      hints: ['q~'],
      minLength: 40,
    }),
    token({
      name: 'google_oauth_secret',
      prefix: String.raw`GOCSPX-|ya29\.|1//0`,
      body: '[A-Za-z0-9_-]{28,400}',
      hints: ['gocspx-', 'ya29.', '1//0'],
      minLength: 32,
      check: (v) => !v.startsWith('GOCSPX-') || v.length === 35,
    }),
    token({
      name: 'alibaba_access_key',
      prefix: 'LTAI',
      body: '[A-Za-z0-9]{12,20}',
      hints: ['ltai'],
      minLength: 16,
    }),
    labelled({
      name: 'alibaba_secret_key',
      keywords: ['alibaba', 'aliyun', 'alicloud', 'access_?key_?secret'],
      hints: ['alibaba', 'aliyun', 'alicloud', 'accesskeysecret', 'access_key_secret', 'accesskey_secret'],
      value: '[a-z0-9]{30}',
      minLength: 36,
    }),
    token({
      name: 'digitalocean_token',
      prefix: 'do[opr]_v1_',
      body: '[a-f0-9]{64}',
      hints: ['doo_v1_', 'dop_v1_', 'dor_v1_'],
      minLength: 71,
    }),
    token({
      name: 'heroku_api_key',
      prefix: 'HRKU-AA',
      body: '[0-9A-Za-z_-]{58}',
      hints: ['hrku-aa'],
      minLength: 65,
    }),
    labelled({
      name: 'heroku_api_key_labelled',
      keywords: ['heroku'],
      value: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
      minLength: 42,
    }),
    token({
      name: 'flyio_token',
      prefix: String.raw`fo1_|fm1[ar]_|fm2_|FlyV1 fm2_`,
      body: '[A-Za-z0-9_+/=-]{43,2000}',
      after: 'A-Za-z0-9_+/=-',
      hints: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
      minLength: 47,
    }),
    token({
      name: 'cloudflare_origin_ca_key',
      prefix: String.raw`v1\.0-`,
      body: '[a-f0-9]{24}-[a-f0-9]{146}',
      hints: ['v1.0-'],
      minLength: 176,
    }),
    labelled({
      name: 'cloudflare_api_key',
      keywords: ['cloudflare', 'cf_api', 'cf_token', 'cf_key'],
      value: '[a-f0-9]{37}|[A-Za-z0-9_-]{40}',
      minLength: 45,
    }),
    token({
      name: 'yandex_cloud_token',
      prefix: String.raw`AQVN|t1\.`,
      body: String.raw`[A-Za-z0-9_-]{35,38}(?![A-Za-z0-9_.=-])|[A-Za-z0-9_-]{1,400}={0,2}\.[A-Za-z0-9_-]{86}={0,2}`,
      after: 'A-Za-z0-9_=-',
      hints: ['aqvn', 't1.'],
      minLength: 39,
    }),
    token({
      name: 'scalingo_api_token',
      prefix: 'tk-us-',
      body: '[A-Za-z0-9_-]{48}',
      hints: ['tk-us-'],
      minLength: 54,
    }),
    token({
      name: 'databricks_token',
      prefix: 'dapi',
      body: String.raw`[a-f0-9]{32}(?:-\d)?`,
      hints: ['dapi'],
      minLength: 36,
    }),
    token({
      name: 'hashicorp_vault_token',
      prefix: String.raw`hvs\.|hvb\.|hvr\.`,
      body: '[A-Za-z0-9_-]{90,400}',
      hints: ['hvs.', 'hvb.', 'hvr.'],
      minLength: 94,
    }),
    token({
      name: 'terraform_cloud_token',
      prefix: String.raw`[A-Za-z0-9]{14}\.atlasv1\.`,
      body: '[A-Za-z0-9_=-]{60,70}',
      after: 'A-Za-z0-9_=-',
      hints: ['.atlasv1.'],
      minLength: 83,
    }),
    token({ name: 'pulumi_token', prefix: 'pul-', body: '[a-f0-9]{40}', hints: ['pul-'], minLength: 44 }),
    token({
      name: 'doppler_token',
      prefix: String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.`,
      body: '[A-Za-z0-9]{40,44}',
      hints: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
      minLength: 46,
    }),
    token({
      name: 'infracost_token',
      prefix: 'ico-',
      body: '[A-Za-z0-9]{32}',
      hints: ['ico-'],
      minLength: 36,
    }),
    token({
      name: 'openshift_token',
      prefix: 'sha256~',
      body: '[A-Za-z0-9_-]{43}',
      hints: ['sha256~'],
      minLength: 50,
    }),
    token({
      name: 'clickhouse_cloud_key',
      prefix: '4b1d',
      body: '[A-Za-z0-9]{38}',
      hints: ['4b1d'],
      minLength: 42,
    }),
    token({
      name: 'planetscale_token',
      prefix: 'pscale_(?:tkn|oauth|pw)_',
      body: '[A-Za-z0-9_=.-]{32,64}',
      after: 'A-Za-z0-9_=.-',
      hints: ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'],
      minLength: 42,
    }),
    token({ name: 'prefect_token', prefix: 'pnu_', body: '[A-Za-z0-9]{36}', hints: ['pnu_'], minLength: 40 }),
    token({
      name: 'defined_networking_token',
      prefix: 'dnkey-',
      body: '[a-z0-9=_-]{26}-[a-z0-9=_-]{52}',
      after: 'a-z0-9=_-',
      hints: ['dnkey-'],
      minLength: 85,
    }),
    token({
      name: 'octopus_deploy_key',
      prefix: 'API-',
      body: '[A-Z0-9]{26}',
      hints: ['api-'],
      minLength: 30,
    }),
    token({
      name: 'onepassword_secret',
      prefix: String.raw`A3-[A-Z0-9]{6}-|ops_eyJ`,
      body: String.raw`(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}|[A-Za-z0-9+/]{250,4000}={0,3}`,
      after: 'A-Za-z0-9+/=_-',
      hints: ['a3-', 'ops_eyj'],
      minLength: 34,
      check: (v) => !v.startsWith('ops_') || isBase64Json(v.slice(4).replace(/=+$/, '')),
    }),
    token({
      name: 'age_secret_key',
      prefix: 'AGE-SECRET-KEY-1',
      body: '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
      hints: ['age-secret-key-1'],
      minLength: 74,
      check: isBech32,
    }),
    token({
      name: 'tailscale_key',
      prefix: 'tskey-(?:[a-z]{1,12}-)?',
      body: '[A-Za-z0-9]{6,20}-[A-Za-z0-9]{20,64}',
      hints: ['tskey-'],
      minLength: 34,
    }),
    token({ name: 'supabase_token', prefix: 'sbp_', body: '[a-f0-9]{40}', hints: ['sbp_'], minLength: 44 }),
  ];
}
