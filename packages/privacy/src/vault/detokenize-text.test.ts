import { describe, expect, it } from 'vitest';
import { TokenVault } from './index.js';

const KEY = 'docs-example-key';

describe('detokenizeText', () => {
  it('reverses an ARN component by component, even one never issued whole (13.6)', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize('123456789012', 'aws_account_id');
    const acct = vault.lookup('123456789012', 'aws_account_id');
    expect(vault.detokenizeText(`arn:aws:sts::${acct}:assumed-role/x`)).toBe(
      'arn:aws:sts::123456789012:assumed-role/x',
    );
  });

  it('does not take sentence punctuation into the last ARN component', () => {
    const vault = new TokenVault({ key: KEY });
    const arn = vault.pseudonymize('arn:aws:s3:::prod-data', 'aws_arn');
    expect(vault.detokenizeText(`Bucket ${arn}. Done`)).toBe('Bucket arn:aws:s3:::prod-data. Done');
  });

  it('tries the whole string first', () => {
    const vault = new TokenVault({ key: KEY });
    const arn = 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890';
    expect(vault.detokenizeText(vault.pseudonymize(arn, 'aws_arn'))).toBe(arn);
    const mail = vault.pseudonymize('alice@corp.com', 'email');
    expect(vault.detokenizeText(mail)).toBe('alice@corp.com');
  });

  it('replaces every pseudonym shape found inside free text', () => {
    const vault = new TokenVault({ key: KEY });
    const values: [string, string][] = [
      ['alice@corp.com', 'email'],
      ['10.0.1.5', 'private_ip'],
      ['54.12.33.0/24', 'public_cidr'],
      ['2600:1f18:abcd::5', 'public_ip'],
      ['1b2c3d4e-1111-2222-3333-444455556666', 'azure_subscription_id'],
      ['00:1A:2B:3C:4D:5E', 'mac_address'],
      ['db.corp.com', 'hostname'],
      ['AKIAIOSFODNN7EXAMPLE', 'aws_access_key_id'],
      ['web-1', 'resource_name'],
      ['sg-0123abcd', 'resource_name'],
      ['123456789012', 'aws_account_id'],
      ['prod', 'dataset_name'],
    ];
    const pairs = values.map(([v, e]) => [v, vault.pseudonymize(v, e)] as const);
    const text = pairs.map(([, p], i) => `item${i}=${p};`).join(' ');
    const expected = pairs.map(([v], i) => `item${i}=${v};`).join(' ');
    expect(vault.detokenizeText(text)).toBe(expected);
  });

  it('rebuilds a CIDR whose address part is a pseudonym with the same prefix length', () => {
    const vault = new TokenVault({ key: KEY });
    const host = vault.pseudonymize('10.0.1.5', 'private_ip');
    expect(vault.detokenizeText(`route ${host}/32 and ${host}/24.`)).toBe(
      'route 10.0.1.5/32 and 10.0.1.5/24.',
    );
  });

  it('replaces the embedded tokens of e-mails and hostnames', () => {
    const vault = new TokenVault({ key: KEY });
    const host = vault.pseudonymize('my-lb-1.us-east-1.elb.amazonaws.com', 'hostname');
    const label = host.split('.')[0]!;
    // A different hostname built around the same label pseudonym.
    expect(vault.detokenizeText(`dualstack.${label}.us-east-1.elb.amazonaws.com`)).toBe(
      'dualstack.my-lb-1.us-east-1.elb.amazonaws.com',
    );
    const mail = vault.pseudonymize('alice@corp.com', 'email');
    const domain = mail.split('@')[1]!;
    expect(vault.detokenizeText(`write to bob@${domain}`)).toBe('write to bob@corp.com');
    const sa = vault.pseudonymize('123456789-compute@developer.gserviceaccount.com', 'email');
    const digits = sa.split('-')[0]!;
    expect(vault.detokenizeText(`${digits}-other@developer.gserviceaccount.com`)).toBe(
      '123456789-other@developer.gserviceaccount.com',
    );
  });

  it('reverses cloudg URIs piece by piece', () => {
    const vault = new TokenVault({ key: KEY });
    const arn = 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890';
    const p = vault.pseudonymize(arn, 'aws_arn');
    expect(vault.detokenizeText(`cloudg://assets/${p}/neighbors`)).toBe(`cloudg://assets/${arn}/neighbors`);
    const ds = vault.pseudonymize('prod', 'dataset_name');
    expect(vault.detokenizeText(`cloudg://datasets/${ds}/summary`)).toBe('cloudg://datasets/prod/summary');
  });

  it('reverses Azure and GCP ids piece by piece when only their parts were issued', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize(
      '/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg/providers/Microsoft.Compute/virtualMachines/web-vm-01',
      'azure_resource_id',
    );
    vault.pseudonymize(
      '//compute.googleapis.com/projects/acme-prod-1/zones/us-central1-a/instances/web-1',
      'gcp_resource_name',
    );
    const sub = vault.lookup('1b2c3d4e-1111-2222-3333-444455556666', 'azure_subscription_id');
    const rg = vault.lookup('prod-rg', 'azure_resource_group');
    const project = vault.lookup('acme-prod-1', 'gcp_project_id');
    expect(vault.detokenizeText(`/subscriptions/${sub}/resourceGroups/${rg}`)).toBe(
      '/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg',
    );
    expect(vault.detokenizeText(`//compute.googleapis.com/projects/${project}/global/networks/default`)).toBe(
      '//compute.googleapis.com/projects/acme-prod-1/global/networks/default',
    );
  });

  it('leaves unknown values and look-alikes alone', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize('web-1', 'resource_name');
    const text = 'at 12:30:00 host 10.9.9.9 id res-0123456789 mail x@y.com n=1234567 arn:aws:s3:::bucket';
    expect(vault.detokenizeText(text)).toBe(text);
  });

  it('stays fast on long hostile input', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize('web-1', 'resource_name');
    const text = `${'a-'.repeat(20_000)}${'1.'.repeat(20_000)}${'ab:'.repeat(20_000)}`;
    expect(vault.detokenizeText(text)).toBe(text);
  });
});
