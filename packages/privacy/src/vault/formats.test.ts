import { describe, expect, it } from 'vitest';
import { TokenVault } from './index.js';

const KEY = 'docs-example-key';

interface Row {
  entity: string;
  value: string;
  /** The pseudonym's expected shape. */
  shape: RegExp;
  /** False where the pseudonym space is too small for two keys to differ reliably (wide CIDRs). */
  keyed?: boolean;
  /** Extra properties the pseudonym must have. */
  check?: (pseudonym: string, vault: TokenVault) => void;
}

const hex10 = '[0-9a-f]{10}';

// One row per line of the 13.2 format table (plus the variants its rules describe).
const ROWS: Row[] = [
  { entity: 'aws_account_id', value: '123456789012', shape: /^[1-9]\d{11}$/ },
  {
    entity: 'aws_arn',
    value: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890',
    shape: /^arn:aws:ec2:us-east-1:[1-9]\d{11}:instance\/i-[0-9a-f]{17}$/,
    check: (p, v) => {
      // The ARN's account is the account's own pseudonym, and the id keeps prefix and length.
      expect(p.split(':')[4]).toBe(v.lookup('123456789012', 'aws_account_id'));
      expect(p.endsWith(`/${v.lookup('i-0abc1234def567890', 'resource_name')}`)).toBe(true);
    },
  },
  {
    entity: 'aws_arn',
    value: 'arn:aws:iam::123456789012:role/service-role/deploy',
    shape: new RegExp(`^arn:aws:iam::[1-9]\\d{11}:role/res-${hex10}/res-${hex10}$`),
  },
  { entity: 'aws_arn', value: 'arn:aws:s3:::prod-data', shape: new RegExp(`^arn:aws:s3:::res-${hex10}$`) },
  {
    entity: 'aws_arn',
    value: 'arn:aws:s3:::prod-data/reports/2024.csv',
    shape: new RegExp(`^arn:aws:s3:::res-${hex10}/res-${hex10}/res-${hex10}$`),
  },
  {
    entity: 'aws_arn',
    value: 'arn:aws:lambda:us-east-1:123456789012:function:api:3',
    shape: new RegExp(`^arn:aws:lambda:us-east-1:[1-9]\\d{11}:function:res-${hex10}:3$`),
  },
  {
    entity: 'azure_resource_id',
    value: '/tenants/abcdef01-1111-2222-3333-444455556666/providers/Microsoft.Aad/domainServices/corp',
    shape: new RegExp(
      `^/tenants/[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/providers/Microsoft\\.Aad/domainServices/res-${hex10}$`,
    ),
  },
  {
    entity: 'aws_arn',
    value: 'arn:aws:lambda:us-east-1:123456789012:function:api:$LATEST',
    shape: new RegExp(`^arn:aws:lambda:us-east-1:[1-9]\\d{11}:function:res-${hex10}:\\$LATEST$`),
  },
  {
    entity: 'azure_resource_id',
    value:
      '/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg/providers/Microsoft.Compute/virtualMachines/web-vm-01',
    shape: new RegExp(
      `^/subscriptions/[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/resourceGroups/rg-${hex10}/providers/Microsoft\\.Compute/virtualMachines/res-${hex10}$`,
    ),
    check: (p, v) => {
      expect(p.split('/')[2]).toBe(v.lookup('1b2c3d4e-1111-2222-3333-444455556666', 'azure_subscription_id'));
    },
  },
  {
    entity: 'azure_subscription_id',
    value: '1b2c3d4e-1111-2222-3333-444455556666',
    shape: /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  },
  {
    entity: 'azure_tenant_id',
    value: 'ABCDEF01-1111-2222-3333-444455556666',
    shape: /^[0-9A-F]{8}-[0-9A-F]{4}-8[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/,
  },
  {
    entity: 'gcp_resource_name',
    value: '//compute.googleapis.com/projects/acme-prod-1/zones/us-central1-a/instances/web-1',
    shape: new RegExp(
      `^//compute\\.googleapis\\.com/projects/proj-[0-9a-f]{8}/zones/us-central1-a/instances/res-${hex10}$`,
    ),
    check: (p, v) => {
      expect(p.split('/')[4]).toBe(v.lookup('acme-prod-1', 'gcp_project_id'));
      expect(p.endsWith(`/${v.lookup('web-1', 'resource_name')}`)).toBe(true);
    },
  },
  {
    entity: 'gcp_resource_name',
    value: 'projects/123456789012/secrets/db',
    shape: new RegExp(`^projects/[1-9]\\d{11}/secrets/res-${hex10}$`),
  },
  {
    entity: 'gcp_resource_name',
    value: 'organizations/123456789/folders/-/locations/global/keyRings/main',
    shape: new RegExp(`^organizations/[1-9]\\d{8}/folders/-/locations/global/keyRings/res-${hex10}$`),
  },
  { entity: 'gcp_project_id', value: 'acme-prod-1', shape: /^proj-[0-9a-f]{8}$/ },
  { entity: 'private_ip', value: '10.0.1.5', shape: /^10\.\d+\.\d+\.\d+$/ },
  { entity: 'private_cidr', value: '10.0.1.0/24', shape: /^10\.\d+\.\d+\.0\/24$/ },
  {
    entity: 'private_cidr',
    value: '10.0.1.5/24',
    shape: /^10\.\d+\.\d+\.\d+\/24$/,
    check: (p, v) => expect(p).toBe(`${v.pseudonymize('10.0.1.5', 'private_ip')}/24`),
  },
  { entity: 'private_ip', value: '192.168.4.20', shape: /^192\.168\.\d+\.\d+$/ },
  {
    entity: 'private_ip',
    value: '172.20.3.4',
    shape: /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/,
  },
  {
    entity: 'private_ip',
    value: '100.64.1.1',
    shape: /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.\d+\.\d+$/,
  },
  { entity: 'public_ip', value: '54.12.33.4', shape: /^198\.1[89]\.\d+\.\d+$/ },
  { entity: 'public_cidr', value: '54.12.33.0/24', shape: /^198\.1[89]\.\d+\.0\/24$/ },
  {
    entity: 'public_cidr',
    value: '52.0.0.0/8',
    shape: /^(24\d|25[0-5])\.0\.0\.0\/8$/,
    keyed: false,
  },
  { entity: 'public_ip', value: '2600:1f18:abcd::5', shape: /^2001:db8:[0-9a-f:]+$/ },
  { entity: 'private_ip', value: 'fd12:3456:789a::1', shape: /^f[cd][0-9a-f]{2}:[0-9a-f:]+$/ },
  {
    entity: 'email',
    value: 'alice@corp.com',
    shape: new RegExp(`^user-[0-9a-f]{8}@d-${hex10}\\.example$`),
    check: (p, v) => {
      // All users of one domain share the domain pseudonym, which reverses on its own.
      const other = v.pseudonymize('bob@corp.com', 'email');
      expect(other.split('@')[1]).toBe(p.split('@')[1]);
      expect(v.detokenize(p.split('@')[1]!.replace(/\.example$/, ''))).toBe('corp.com');
    },
  },
  {
    entity: 'email',
    value: 'ci@acme-prod-1.iam.gserviceaccount.com',
    shape: /^sa-[0-9a-f]{8}@proj-[0-9a-f]{8}\.iam\.gserviceaccount\.com$/,
    check: (p, v) =>
      expect(p.split('@')[1]).toBe(`${v.lookup('acme-prod-1', 'gcp_project_id')}.iam.gserviceaccount.com`),
  },
  {
    entity: 'email',
    value: '123456789-compute@developer.gserviceaccount.com',
    shape: /^[1-9]\d{8}-compute@developer\.gserviceaccount\.com$/,
  },
  {
    entity: 'hostname',
    value: 'my-lb-1.us-east-1.elb.amazonaws.com',
    shape: new RegExp(`^h-${hex10}\\.us-east-1\\.elb\\.amazonaws\\.com$`),
    check: (p, v) => expect(v.detokenize(p.split('.')[0]!)).toBe('my-lb-1'),
  },
  {
    entity: 'hostname',
    value: 'mydata.blob.core.windows.net',
    shape: new RegExp(`^h-${hex10}\\.blob\\.core\\.windows\\.net$`),
  },
  { entity: 'hostname', value: 'db.corp.com', shape: /^host-[0-9a-f]{8}\.example$/ },
  {
    entity: 'hostname',
    value: 'ec2-54-12-33-4.compute-1.amazonaws.com',
    shape: new RegExp(`^h-${hex10}\\.compute-1\\.amazonaws\\.com$`),
  },
  {
    entity: 'hostname',
    value: 'ip-10-0-1-5.us-west-2.compute.internal',
    shape: new RegExp(`^h-${hex10}\\.us-west-2\\.compute\\.internal$`),
  },
  {
    entity: 'gcp_resource_name',
    value: '//storage.googleapis.com/my-bucket',
    shape: new RegExp(`^//storage\\.googleapis\\.com/res-${hex10}$`),
  },
  { entity: 'resource_name', value: 'i-0abc1234def567890', shape: /^i-[0-9a-f]{17}$/ },
  { entity: 'resource_name', value: 'sg-0123abcd', shape: /^sg-[0-9a-f]{8}$/ },
  { entity: 'resource_name', value: 'vpc-0a1b2c3d4e5f60718', shape: /^vpc-[0-9a-f]{17}$/ },
  { entity: 'resource_name', value: 'subnet-0123abcd', shape: /^subnet-[0-9a-f]{8}$/ },
  {
    entity: 'uuid',
    value: '{1B2C3D4E-1111-2222-3333-444455556666}',
    shape: /^\{[0-9A-F]{8}-[0-9A-F]{4}-8[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}\}$/,
  },
  { entity: 'mac_address', value: '001a.2b3c.4d5e', shape: /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/ },
  { entity: 'resource_name', value: 'web-1', shape: new RegExp(`^res-${hex10}$`) },
  {
    entity: 'aws_access_key_id',
    value: 'AKIAIOSFODNN7EXAMPLE',
    shape: /^AKIA[A-Z2-7]{16}$/,
  },
  { entity: 'aws_access_key_id', value: 'ASIAIOSFODNN7EXAMPLE', shape: /^ASIA[A-Z2-7]{16}$/ },
  {
    entity: 'mac_address',
    value: '00:1A:2B:3C:4D:5E',
    shape: /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/,
    check: (p) => {
      const first = Number.parseInt(p.slice(0, 2), 16);
      expect(first & 0b10).toBe(0b10); // locally administered
      expect(first & 0b01).toBe(0); // unicast
    },
  },
  { entity: 'mac_address', value: '00-1a-2b-3c-4d-5e', shape: /^[0-9a-f]{2}(-[0-9a-f]{2}){5}$/ },
  { entity: 'person', value: 'alice', shape: new RegExp(`^person-${hex10}$`) },
  { entity: 'tag_value', value: 'payments', shape: new RegExp(`^tag-${hex10}$`) },
  {
    entity: 'cloudg_uri',
    value: 'cloudg://assets/web-1',
    shape: new RegExp(`^cloudg://assets/res-${hex10}$`),
    check: (p, v) => expect(p).toBe(`cloudg://assets/${v.pseudonymize('web-1', 'resource_name')}`),
  },
  {
    entity: 'cloudg_uri',
    value: 'cloudg://assets/arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890/neighbors',
    shape: /^cloudg:\/\/assets\/arn:aws:ec2:us-east-1:[1-9]\d{11}:instance\/i-[0-9a-f]{17}\/neighbors$/,
    check: (p, v) =>
      expect(p).toBe(
        `cloudg://assets/${v.pseudonymize('arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890', 'aws_arn')}/neighbors`,
      ),
  },
  {
    entity: 'cloudg_uri',
    value: 'cloudg://datasets/prod/summary',
    shape: new RegExp(`^cloudg://datasets/ds-${hex10}/summary$`),
    check: (p, v) => expect(p).toBe(`cloudg://datasets/${v.pseudonymize('prod', 'dataset_name')}/summary`),
  },
  { entity: 'dataset_name', value: 'prod', shape: new RegExp(`^ds-${hex10}$`) },
  { entity: 'url_username', value: 'alice', shape: new RegExp(`^user-${hex10}$`) },
  { entity: 'cloud_account', value: 'prod', shape: new RegExp(`^acct-${hex10}$`) },
  { entity: 'custom_thing', value: 'whatever', shape: new RegExp(`^customthin-${hex10}$`) },
  { entity: 'aws_account_id', value: 'prod-payments', shape: new RegExp(`^awsaccount-${hex10}$`) },
  { entity: 'number', value: '0012345', shape: /^0\d{6}$/ },
  { entity: 'private_ip', value: 'not-an-ip', shape: new RegExp(`^privateip-${hex10}$`) },
];

describe('pseudonym formats (13.2)', () => {
  it.each(ROWS)('$entity $value', ({ entity, value, shape, check, keyed }) => {
    const vault = new TokenVault({ key: KEY });
    const p = vault.pseudonymize(value, entity);
    expect(p).toMatch(shape);
    expect(p).not.toBe(value);
    expect(vault.detokenize(p)).toBe(value);
    check?.(p, vault);
    // Deterministic: another vault with the same key gives the same pseudonym...
    expect(new TokenVault({ key: KEY }).pseudonymize(value, entity)).toBe(p);
    // ...and a different key a different one.
    if (keyed !== false)
      expect(new TokenVault({ key: 'another-key' }).pseudonymize(value, entity)).not.toBe(p);
  });

  it.each([
    ['special_cidr', '0.0.0.0/0'],
    ['special_ip', '169.254.169.254'],
    ['special_ip', '127.0.0.1'],
    ['special_ip', 'fe80::1'],
    ['private_cidr', '10.0.0.0/8'],
    ['private_cidr', '172.16.0.0/12'],
    ['public_cidr', '0.0.0.0/2'],
    ['public_cidr', '2600::/16'],
    ['hostname', 's3.amazonaws.com'],
    ['hostname', 'metadata.google.internal'],
    ['resource_name', '*'],
    ['resource_name', ''],
    ['resource_name', '$LATEST'],
    ['aws_arn', 'arn:aws:iam::aws:policy/*'],
  ])('leaves %s %s unchanged and unstored', (entity, value) => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.pseudonymize(value, entity)).toBe(value);
    expect(vault.stats().entries).toBe(0);
  });

  it('registers ARN components on their own', () => {
    const vault = new TokenVault({ key: KEY });
    const arn = vault.pseudonymize('arn:aws:iam::123456789012:role/service-role/deploy', 'aws_arn');
    const [, path, name] = /:role\/(res-\w+)\/(res-\w+)$/.exec(arn) ?? [];
    expect(vault.detokenize(path!)).toBe('service-role');
    expect(vault.detokenize(name!)).toBe('deploy');
    expect(vault.entry(name!)).toMatchObject({
      entity: 'resource_name',
      real: 'deploy',
      namespace: 'global',
    });
  });

  it('keeps the digit length and a non-zero first digit for every length', () => {
    const vault = new TokenVault({ key: KEY });
    for (let n = 1; n <= 40; n++) {
      const value = `9${'1'.repeat(n - 1)}`;
      const p = vault.pseudonymize(value, 'gcp_project_number');
      expect(p).toMatch(new RegExp(`^[1-9]\\d{${n - 1}}$`));
    }
  });

  it('pseudonymises a cloudg URI reference as the entity it looks like', () => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.pseudonymize('cloudg://assets/10.0.1.5/neighbors', 'cloudg_uri')).toBe(
      `cloudg://assets/${vault.pseudonymize('10.0.1.5', 'private_ip')}/neighbors`,
    );
    expect(vault.pseudonymize('cloudg://assets/i-0abc1234def567890/findings', 'cloudg_uri')).toBe(
      `cloudg://assets/${vault.pseudonymize('i-0abc1234def567890', 'resource_name')}/findings`,
    );
  });

  it('tokenize is an alias of pseudonymize', () => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.tokenize('web-1', 'resource_name')).toBe(vault.pseudonymize('web-1', 'resource_name'));
  });

  it('hashValue is keyed, stable per key and not a pseudonym', () => {
    const a = new TokenVault({ key: KEY });
    expect(a.hashValue('alice@corp.com')).toMatch(/^[0-9a-f]{64}$/);
    expect(new TokenVault({ key: KEY }).hashValue('alice@corp.com')).toBe(a.hashValue('alice@corp.com'));
    expect(new TokenVault({ key: 'other' }).hashValue('alice@corp.com')).not.toBe(
      a.hashValue('alice@corp.com'),
    );
    expect(a.stats().entries).toBe(0);
  });
});
