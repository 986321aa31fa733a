import { describe, expect, it } from 'vitest';
import { builtinDetectors, classifyIpText, type Detector, detectSpans } from '../src/index.js';

const all = builtinDetectors();
const byName = (name: string): Detector => {
  const d = all.find((x) => x.name === name);
  if (!d) throw new Error(`no detector ${name}`);
  return d;
};

/** The values one detector reports in `text`, running it alone. */
function found(name: string, text: string): string[] {
  return detectSpans(text, [byName(name)]).map((s) => text.slice(s.start, s.end));
}

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const SECRET40 = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const STORAGE_KEY = `${'Ab1+'.repeat(21)}Xy==`; // 86 characters plus ==

// [detector, text, expected reported values]
const matches: Array<[string, string, string[]]> = [
  ['cloudg_uri', 'see cloudg://assets/web-1/neighbors now', ['cloudg://assets/web-1/neighbors']],
  ['cloudg_uri', 'cloudg://datasets/prod/summary', ['cloudg://datasets/prod/summary']],
  [
    'private_key',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----',
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----'],
  ],
  ['private_key', 'x -----BEGIN RSA PRIVATE KEY-----\nMIIE', ['-----BEGIN RSA PRIVATE KEY-----\nMIIE']],
  ['jwt', `token ${JWT} end`, [JWT]],
  ['url_credentials', 'redis://default:pa55word99@cache.internal', ['pa55word99']],
  ['connection_string_secret', 'Server=db;User Id=app;Password=S3cr3t!x;', ['S3cr3t!x']],
  ['aws_secret_access_key', `aws_secret_access_key = ${SECRET40}`, [SECRET40]],
  ['secret_assignment', '{"client_secret": "zq81Lm2Xp0"}', ['zq81Lm2Xp0']],
  ['secret_assignment', 'api_key: zq81Lm2Xp0', ['zq81Lm2Xp0']],
  ['secret_assignment', 'export DB_PASSWORD=hunter2', ['hunter2']],
  ['authorization_header', 'Authorization: Bearer abcdefghijklmnop1234', ['abcdefghijklmnop1234']],
  ['github_token', `ghp_${'a1B2'.repeat(9)}`, [`ghp_${'a1B2'.repeat(9)}`]],
  ['slack_token', 'xoxb-1234567890-abcdefghij', ['xoxb-1234567890-abcdefghij']],
  ['google_api_key', `AIza${'x'.repeat(35)}`, [`AIza${'x'.repeat(35)}`]],
  ['stripe_key', 'sk_live_x1x1x1x1x1x1x1x1x1x1', ['sk_live_x1x1x1x1x1x1x1x1x1x1']],
  [
    'azure_sas_signature',
    'https://a.blob.core.windows.net/c?sv=2020&sig=AbCdEf0123456789%2BxyzQQ',
    ['AbCdEf0123456789%2BxyzQQ'],
  ],
  ['azure_storage_key', `key ${STORAGE_KEY}`, [STORAGE_KEY]],
  [
    'high_entropy_secret',
    'Qm9vb3RzdHJhcEtleTEyMzQ1Njc4OTBhYmNkZWZn',
    ['Qm9vb3RzdHJhcEtleTEyMzQ1Njc4OTBhYmNkZWZn'],
  ],
  ['aws_access_key_id', 'key AKIAIOSFODNN7EXAMPLE', ['AKIAIOSFODNN7EXAMPLE']],
  ['aws_unique_id', 'AROAJ2UCCR6DPCEXAMPLE', ['AROAJ2UCCR6DPCEXAMPLE']],
  ['aws_arn', 'bucket arn:aws:s3:::my-bucket', ['arn:aws:s3:::my-bucket']],
  ['aws_organization_id', 'org o-a1b2c3d4e5 / ou-ab12-cdef3456', ['o-a1b2c3d4e5', 'ou-ab12-cdef3456']],
  ['aws_arn', 'arn:aws-us-gov:iam::123456789012:role/x', ['arn:aws-us-gov:iam::123456789012:role/x']],
  [
    'azure_resource_id',
    '/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg',
    ['/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg'],
  ],
  ['gcp_resource_name', 'topic projects/acme-prod-1/topics/orders', ['projects/acme-prod-1/topics/orders']],
  [
    'gcp_resource_name',
    '//compute.googleapis.com/projects/acme-prod-1/zones/us-central1-a/instances/web-1',
    ['//compute.googleapis.com/projects/acme-prod-1/zones/us-central1-a/instances/web-1'],
  ],
  [
    'azure_subscription_ref',
    'tenant_id: 9f86d081-884c-4d63-9a2b-1c5e3f0a7b21',
    ['9f86d081-884c-4d63-9a2b-1c5e3f0a7b21'],
  ],
  ['url_userinfo', 'https://alice@git.example.com/repo', ['alice']],
  ['email', 'mail alice@example.com please', ['alice@example.com']],
  ['aws_account_id', 'account 123456789012', ['123456789012']],
  ['uuid', '9f86d081-884c-4d63-9a2b-1c5e3f0a7b21', ['9f86d081-884c-4d63-9a2b-1c5e3f0a7b21']],
  ['ipv6', 'fe80::1', ['fe80::1']],
  ['ipv6', 'route 2600:1f18::/32', ['2600:1f18::/32']],
  ['ipv6', '::1', ['::1']],
  ['ipv6', '::/0', ['::/0']],
  ['ipv4', 'host 10.0.1.5 up', ['10.0.1.5']],
  ['ipv4', '54.12.33.4/32', ['54.12.33.4/32']],
  ['ipv4', '0.0.0.0/0', ['0.0.0.0/0']],
  ['mac_address', '00:1a:2b:3c:4d:5e', ['00:1a:2b:3c:4d:5e']],
  ['hostname', 'db1.prod.corp.com', ['db1.prod.corp.com']],
  ['hostname', 'ip-10-0-1-5.ec2.internal', ['ip-10-0-1-5.ec2.internal']],
  ['hostname', 'my-bucket.s3.amazonaws.com', ['my-bucket.s3.amazonaws.com']],
  ['timestamp', 'at 2024-05-01T12:30:00Z', ['2024-05-01T12:30:00Z']],
];

const nonMatches: Array<[string, string]> = [
  ['cloudg_uri', 'cloudg://findings/f-1'],
  ['private_key', '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----'],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9'],
  ['url_credentials', 'https://alice@git.example.com'],
  ['connection_string_secret', 'Server=db;Password=;'],
  ['aws_secret_access_key', SECRET40],
  ['secret_assignment', 'password = null'],
  ['secret_assignment', `token: ${'$'}{TOKEN}`],
  ['secret_assignment', 'api_key="<redacted>"'],
  ['authorization_header', 'Bearer abc123'],
  ['github_token', 'ghp_short123'],
  ['slack_token', 'xoxb-123'],
  ['google_api_key', 'AIzaShort'],
  ['stripe_key', 'sk_live_short'],
  ['azure_sas_signature', '?sig=short'],
  ['azure_storage_key', `${STORAGE_KEY.slice(1)}`],
  ['high_entropy_secret', 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'],
  ['high_entropy_secret', 'Zx9'.repeat(12)],
  ['high_entropy_secret', 'my_password_is_long_and_wordy_value_here_ok'],
  ['aws_access_key_id', 'AKIA1234567890ABCDE'],
  ['aws_unique_id', 'AIDA123456789012345'],
  ['aws_arn', 'arn:partition:ec2:x'],
  ['aws_organization_id', 'auto-scaling-group-1234567890'],
  ['azure_resource_id', '/subscriptions/not-a-guid/resourceGroups/x'],
  ['gcp_resource_name', 'projects/ab/x'],
  ['gcp_resource_name', 'projects-list/zones'],
  ['azure_subscription_ref', 'id 9f86d081-884c-4d63-9a2b-1c5e3f0a7b21'],
  ['url_userinfo', 'https://git.example.com/repo'],
  ['email', 'user@localhost'],
  ['email', 'https://alice@git.example.com/repo'],
  ['aws_account_id', '1234567890123'],
  ['aws_account_id', '000000000000'],
  ['aws_account_id', '/aws/lambda/fn-123456789012'],
  ['aws_account_id', '123456789012.5'],
  ['ipv6', 'std::vector'],
  ['ipv6', 'a::b'],
  ['ipv6', '::'],
  ['ipv4', '999.1.1.1'],
  ['ipv4', '10.0.0.256'],
  ['ipv4', '1.2.3.4.5'],
  ['mac_address', '00:1a:2b:3c:4d'],
  ['hostname', 'config.yaml'],
  ['hostname', 'service.example.invalid'],
  ['timestamp', '2024-05-01'],
];

describe('content detectors (12.1)', () => {
  it.each(matches)('%s matches %j', (name, text, expected) => {
    expect(found(name, text)).toEqual(expected);
  });

  it.each(nonMatches)('%s does not match %j', (name, text) => {
    expect(found(name, text)).toEqual([]);
  });

  it('lists every detector of the reference in priority order', () => {
    expect(all.map((d) => d.name)).toEqual([
      'cloudg_uri',
      'private_key',
      'jwt',
      'url_credentials',
      'connection_string_secret',
      'aws_secret_access_key',
      'secret_assignment',
      'authorization_header',
      'github_token',
      'slack_token',
      'google_api_key',
      'stripe_key',
      'azure_sas_signature',
      'azure_storage_key',
      'high_entropy_secret',
      'aws_access_key_id',
      'aws_unique_id',
      'aws_arn',
      'aws_organization_id',
      'azure_resource_id',
      'gcp_resource_name',
      'azure_subscription_ref',
      'url_userinfo',
      'email',
      'aws_account_id',
      'uuid',
      'ipv6',
      'ipv4',
      'mac_address',
      'hostname',
      'timestamp',
    ]);
    for (const d of all) expect(d.hints.every((h) => h === h.toLowerCase())).toBe(true);
  });

  it('in a URL with user info, reports the user and the host but no e-mail', () => {
    const text = 'https://alice@git.example.com/repo';
    const spans = detectSpans(text, all).map((s) => [s.detector.name, text.slice(s.start, s.end)]);
    expect(spans).toEqual([
      ['url_userinfo', 'alice'],
      ['hostname', 'git.example.com'],
    ]);
  });

  it('an ARN swallows the account number inside it', () => {
    const text = 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc';
    const spans = detectSpans(text, all);
    expect(spans.map((s) => s.detector.name)).toEqual(['aws_arn']);
  });

  it('refines IP entities and rejects placeholder-like values', () => {
    const text = '10.0.1.5 54.12.33.4 fe80::1 169.254.169.254 0.0.0.0/0 10.0.0.0/8';
    expect(detectSpans(text, all).map((s) => s.entity)).toEqual([
      'private_ip',
      'public_ip',
      'special_ip',
      'special_ip',
      'special_cidr',
      'private_cidr',
    ]);
  });
});

describe('IP classification (12.2)', () => {
  it.each([
    ['0.0.0.0', 'special_ip'],
    ['127.0.0.1', 'special_ip'],
    ['169.254.169.254', 'special_ip'],
    ['224.0.0.1', 'special_ip'],
    ['240.1.2.3', 'special_ip'],
    ['255.255.255.255', 'special_ip'],
    ['::', 'special_ip'],
    ['::1', 'special_ip'],
    ['fe80::1', 'special_ip'],
    ['ff02::1', 'special_ip'],
    ['10.1.2.3', 'private_ip'],
    ['172.16.0.1', 'private_ip'],
    ['172.31.255.1', 'private_ip'],
    ['192.168.4.20', 'private_ip'],
    ['100.64.1.1', 'private_ip'],
    ['fd12:3456:789a::1', 'private_ip'],
    ['172.32.0.1', 'public_ip'],
    ['54.12.33.4', 'public_ip'],
    ['192.0.2.1', 'public_ip'],
    ['2600:1f18:abcd::5', 'public_ip'],
    ['0.0.0.0/0', 'special_cidr'],
    ['::/0', 'special_cidr'],
    ['10.0.1.0/24', 'private_cidr'],
    ['10.0.1.5/24', 'private_cidr'],
    ['54.12.33.0/24', 'public_cidr'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyIpText(ip)).toBe(cls);
  });

  it('rejects invalid addresses', () => {
    expect(classifyIpText('256.1.1.1')).toBeNull();
    expect(classifyIpText('10.0.0.0/33')).toBeNull();
    expect(classifyIpText('1::2::3')).toBeNull();
  });
});
