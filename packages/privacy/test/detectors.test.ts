import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base62, crc32 } from '../src/detectors/checks.js';
import { isPlaceholder } from '../src/detectors/validators.js';
import { builtinDetectors, classifyIpText, type Detector, detectSpans, Redactor } from '../src/index.js';
import { DETECTOR_EXAMPLES } from './corpus/examples.js';
import { ctx, STANDARD_STRATEGIES, STRICT_STRATEGIES, testVault } from './helpers.js';

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
  ['google_api_key', 'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0', ['AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0']],
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
  // A real prefix before one repeated character is a placeholder (issue 11).
  ['google_api_key', `AIza${'x'.repeat(35)}`],
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

  it('keeps the reference detectors in their priority order, provider detectors between them', () => {
    const reference = [
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
    ];
    const names = all.map((d) => d.name);
    expect(names.filter((n) => reference.includes(n))).toEqual(reference);
    // The provider and password detectors sit between stripe_key and azure_sas_signature: a
    // reference detector that starts at the same position still wins, as documented.
    const added = names.filter((n) => !reference.includes(n));
    expect(names.slice(names.indexOf('stripe_key') + 1, names.indexOf('azure_sas_signature'))).toEqual(added);
    expect(new Set(names).size).toBe(names.length);
    for (const d of all) expect(d.hints.every((h) => h === h.toLowerCase())).toBe(true);
  });

  it('describes every detector; only aws_access_key_id is a credential, every added one a secret', () => {
    for (const d of all) expect([d.name, typeof d.description]).toEqual([d.name, 'string']);
    expect(all.filter((d) => d.category === 'credential').map((d) => d.name)).toEqual(['aws_access_key_id']);
    const first = all.findIndex((d) => d.name === 'stripe_key') + 1;
    const last = all.findIndex((d) => d.name === 'azure_sas_signature');
    for (const d of all.slice(first, last)) expect([d.name, d.category]).toEqual([d.name, 'secret']);
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

describe('provider and password detectors (issue 11)', () => {
  it('has an example for every detector the reference does not list', () => {
    const covered = new Set([...matches.map(([name]) => name), ...DETECTOR_EXAMPLES.map(([name]) => name)]);
    expect(all.map((d) => d.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(DETECTOR_EXAMPLES)('%s finds its example', (name, text, expected) => {
    expect(found(name, text)).toEqual([expected]);
    // ... and keeps it when every built-in detector runs on the same line.
    const together = detectSpans(text, all).filter((s) => s.detector.name === name);
    expect(together.map((s) => text.slice(s.start, s.end))).toEqual([expected]);
  });

  // The placeholders, with the detector that would otherwise report them.
  const placeholders: Array<[string, string]> = [
    ['github_token', `ghp_${'x'.repeat(36)}`],
    ['github_token', `github_pat_${'x'.repeat(22)}_${'x'.repeat(59)}`],
    ['gitlab_token', 'glpat-xxxxxxxxxxxxxxxxxxxx'],
    ['gitlab_token', 'glpat-XXXXXXXXXXX-XXXXXXXX'],
    ['slack_token', 'xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx'],
    ['slack_token', 'xoxb-your-token-here-please'],
    ['slack_token', 'xoxp-572370529330-573807301142-572331691188-'],
    ['google_api_key', `AIzaSy${'A'.repeat(33)}`],
    ['stripe_key', `sk_live_${'x'.repeat(24)}`],
    ['aws_access_key_id', 'AKIAXXXXXXXXXXXXXXXX'],
    ['aws_access_key_id', 'AKIAZZZZZZZZZZZZZZZZ'],
    ['huggingface_token', `hf_${'x'.repeat(34)}`],
    ['npm_token', `npm_${'x'.repeat(36)}`],
    ['npm_token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['slack_webhook_url', 'https://hooks.slack.com/services/Txxxxxxxx/Bxxxxxxxx/xxxxxxxxxxxxxxxxxxxxxxxx'],
    ['age_secret_key', `AGE-SECRET-KEY-1${'Q'.repeat(58)}`],
    ['openai_api_key', `sk-proj-${'x'.repeat(60)}T3BlbkFJ${'x'.repeat(60)}`],
    ['secret_assignment', 'api_key = "<your-api-key-here>"'],
    ['secret_assignment', 'token: <your-token-here>'],
    ['secret_assignment', 'password: changeme'],
    ['secret_assignment', 'password = "somefakekey"'],
    ['secret_assignment', 'apiKey: "AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"'],
    ['secret_assignment', 'pwd: /var/lib/postgresql/data'],
    ['secret_assignment', 'arn:aws:secretsmanager:us-east-1:111122223333:secret:prod/db-AbCdEf'],
    ['nuget_config_password', '<add key="ClearTextPassword" value="%TestSourcePassword%" />'],
    ['curl_user_password', 'curl -u <user:password> https://test.com/endpoint'],
    ['curl_user_password', `curl -u "${'$'}{username}":"${'$'}{password}" https://x`],
    ['curl_user_password', 'curl --user "$(cat ./login.txt):$(cat ./password.txt)" https://x'],
    ['password_phrase', 'the password is required for every admin account'],
    ['password_phrase', 'db password is stored in AWS Secrets Manager'],
    ['docker_login_password', 'docker login -u ci -p $REGISTRY_PASSWORD registry.example.com'],
  ];
  it.each(placeholders)('%s leaves %j alone', (name, text) => {
    expect(found(name, text)).toEqual([]);
  });

  it('still finds the documented examples, which are not placeholders', () => {
    expect(found('aws_access_key_id', 'key AKIAIOSFODNN7EXAMPLE')).toEqual(['AKIAIOSFODNN7EXAMPLE']);
    expect(found('aws_secret_access_key', `aws_secret_access_key = ${SECRET40}`)).toEqual([SECRET40]);
    expect(found('stripe_key', 'sk_live_x1x1x1x1x1x1x1x1x1x1')).toEqual(['sk_live_x1x1x1x1x1x1x1x1x1x1']);
    expect(found('slack_token', 'xoxb-1234567890-abcdefghij')).toEqual(['xoxb-1234567890-abcdefghij']);
    expect(found('connection_string_secret', 'password=Tr0ub4dor&3 and key')).toEqual(['Tr0ub4dor&3']);
  });

  it('finds AWS access keys and secret keys in the shapes the reference patterns missed', () => {
    for (const key of ['ABIAQ3EGPD5LGR7LQXFA', 'ACCAQ3EGPD5LGR7LQXFA', 'A3T0Q3EGPD5LGR7LQXFA']) {
      expect(found('aws_access_key_id', `key ${key}`)).toEqual([key]);
    }
    expect(found('aws_access_key_id', 'AWS_KEY_AKIAQ3EGPD5LGR7LQXFA')).toEqual(['AKIAQ3EGPD5LGR7LQXFA']);
    for (const line of [
      `"SecretAccessKey": "${SECRET40}"`,
      `secretAccessKey: ${SECRET40}`,
      `secret_key = ${SECRET40}`,
      `--secret-access-key ${SECRET40}`,
      `{\\"SecretAccessKey\\": \\"${SECRET40}\\"}`,
      // Shell and .env lines: the key right after `=`.
      `export AWS_SECRET_ACCESS_KEY=${SECRET40}`,
      `aws_secret_access_key=${SECRET40}`,
      `AWS_SECRET_ACCESS_KEY="${SECRET40}"`,
    ]) {
      expect([line, found('aws_secret_access_key', line)]).toEqual([line, [SECRET40]]);
    }
  });

  it('finds tokens right after a JSON escape (\\n, \\t, \\")', () => {
    const token = 'glpat-TPNbpjava1bMZwIMlvdp';
    expect(found('gitlab_token', `{"script": "set -e\\n${token}"}`)).toEqual([token]);
    expect(found('github_token', `"a\\tghp_${'a1B2'.repeat(9)}"`)).toEqual([`ghp_${'a1B2'.repeat(9)}`]);
    // Not after a plain letter: that is the middle of another word.
    expect(found('gitlab_token', `xglpat-TPNbpjava1bMZwIMlvdp`)).toEqual([]);
  });

  it('checks GitHub and npm checksums, and lets a valid one vouch for a token', () => {
    const random = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0';
    const token = `ghp_${random}${base62(crc32(random), 6)}`;
    expect(found('github_token', token)).toEqual([token]);
    // Without a valid checksum a lower-case, digit-free body is not a token.
    const plain = 'abcdefghijklmnopqrstuvwxyzabcdefghij';
    expect(found('github_token', `ghp_${plain}`)).toEqual([]);
    const vouched = `ghp_${plain.slice(0, 30)}${base62(crc32(plain.slice(0, 30)), 6)}`;
    expect(found('github_token', vouched)).toEqual([vouched]);
  });

  it('validates structured payloads: JWT header, Docker auth, Discord id, age checksum', () => {
    expect(found('jwt', `${JWT.replace('eyJhbGci', 'eyJub3Rh')}`)).toEqual([]);
    expect(found('docker_config_auth', '{"auth": "dXNlcjpodW50ZXIy"}')).toEqual(['dXNlcjpodW50ZXIy']);
    // Base64 of `userhunter2`: no `user:password` pair.
    expect(found('docker_config_auth', '{"auth": "dXNlcmh1bnRlcjI="}')).toEqual([]);
    // The first part of a bot token must decode to a Discord id (or the token look random).
    const bot = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se8kKWs';
    expect(found('discord_bot_token', `bot ${bot}`)).toEqual([bot]);
    expect(found('discord_bot_token', `M${'a'.repeat(23)}.abcdef.${'b'.repeat(27)}`)).toEqual([]);
    const age = 'AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS2MFTVY';
    expect(found('age_secret_key', age)).toEqual([]);
  });

  it('leaves lockfile integrity hashes and other content digests alone', () => {
    const sha512 = `${'Ab1+'.repeat(21)}Xy==`;
    for (const text of [
      `"integrity": "sha512-${sha512}"`,
      `integrity sha512-${sha512}`,
      'golang.org/x/net v0.17.0 h1:pVaXccu2ozPjCXewfr1S7xza/zcXTity9cCdXQYSjIM=',
      'CodeSha256: fV9J3Xk2PqL8mN4rT7vW1yB6cD0eG5hJ9kM3nQ2sU4w=',
      '"checksum": "fV9J3Xk2PqL8mN4rT7vW1yB6cD0eG5hJ9kM3nQ2sU4w="',
    ]) {
      const secrets = detectSpans(text, all).filter((s) => s.detector.category === 'secret');
      expect([text, secrets.map((s) => s.detector.name)]).toEqual([text, []]);
    }
  });

  it('applies placeholder rules to secrets only: identifiers under strict are pseudonymised as before', () => {
    const redactor = new Redactor({ strategies: STRICT_STRATEGIES }, { vault: testVault() });
    const value = { note: 'owner changeme@example.com', arn: 'arn:aws:iam::123456789012:role/xxxxxxxx' };
    const out = redactor.apply(value, ctx()) as Record<string, string>;
    expect(out.note).not.toContain('changeme@example.com');
    expect(out.arn).not.toContain('123456789012');
    // Under standard a placeholder token is left as it is.
    const standard = new Redactor({ strategies: STANDARD_STRATEGIES }, {});
    expect(standard.apply({ t: `ghp_${'x'.repeat(36)}` }, ctx())).toEqual({ t: `ghp_${'x'.repeat(36)}` });
  });

  it('lists every detector with the strategy a profile gives it: standard redacts the added ones', () => {
    const listing = new Redactor({ strategies: STANDARD_STRATEGIES }, {}).describe();
    expect(listing.detectors.map((d) => d.name)).toEqual(all.map((d) => d.name));
    const added = all.slice(
      all.findIndex((d) => d.name === 'stripe_key') + 1,
      all.findIndex((d) => d.name === 'azure_sas_signature'),
    );
    for (const d of added) {
      expect(listing.detectors.find((l) => l.name === d.name)).toMatchObject({
        category: 'secret',
        strategy: 'redact',
        active: true,
      });
    }
  });

  it('the README lists every detector with its category and entity', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const rows = new Map(
      [...readme.matchAll(/^\| `([a-z0-9_]+)` \| ([a-z_]+) \| ([a-z_]+) \|/gm)].map((m) => [
        m[1],
        [m[2], m[3]],
      ]),
    );
    for (const d of all) expect([d.name, rows.get(d.name)]).toEqual([d.name, [d.category, d.entity]]);
  });

  it('reads one repeated character and stand-in words as placeholders', () => {
    expect(isPlaceholder('aaaaaaaaaaaa')).toBe(true);
    expect(isPlaceholder('your-password-here')).toBe(true);
    expect(isPlaceholder('%NUGET_PASSWORD%')).toBe(true);
    expect(isPlaceholder('$DB_PASSWORD')).toBe(true);
    expect(isPlaceholder('hunter2')).toBe(false);
    expect(isPlaceholder('x1x1x1x1x1x1')).toBe(false);
  });
});
