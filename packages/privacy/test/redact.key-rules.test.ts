import { describe, expect, it } from 'vitest';
import { builtinKeyRules, Redactor } from '../src/index.js';
import { normalizeKey } from '../src/util/keys.js';
import { ctx, STANDARD_STRATEGIES, STRICT_STRATEGIES, testVault } from './helpers.js';

const vault = testVault();
const standard = () => new Redactor({ strategies: STANDARD_STRATEGIES }, { vault });
const strict = () => new Redactor({ strategies: STRICT_STRATEGIES }, { vault });

describe('key normalisation', () => {
  it.each([
    ['SecretAccessKey', 'secret_access_key'],
    ['secret-access-key', 'secret_access_key'],
    ['secretAccessKey', 'secret_access_key'],
    ['DBPassword', 'db_password'],
    ['AccessKeyId', 'access_key_id'],
    ['  weird..Key__', 'weird_key'],
  ])('%s -> %s', (key, expected) => {
    expect(normalizeKey(key)).toBe(expected);
  });
});

describe('sensitive_key', () => {
  it('replaces values under sensitive keys, including numbers, across the subtree', () => {
    expect(standard().apply({ credentials: { user: 'bob', pin: 1234 } }, ctx())).toEqual({
      credentials: { user: '[REDACTED:sensitive_field]', pin: '[REDACTED:sensitive_field]' },
    });
  });

  it.each([
    'password',
    'db_password',
    'client_secret',
    'SecretAccessKey',
    'user_data',
    'apiKey',
    'auth',
    'kubeconfig',
  ])('%s is replaced', (key) => {
    expect(standard().apply({ [key]: 'value-1' }, ctx())).toEqual({ [key]: '[REDACTED:sensitive_field]' });
  });

  it.each([
    'password_last_used',
    'kms_key_id',
    'has_password',
    'token_expiry',
    'secret_arn',
    'max_tokens',
    'password_enabled',
  ])('safe key %s is left alone', (key) => {
    expect(standard().apply({ [key]: 'value-1' }, ctx())).toEqual({ [key]: 'value-1' });
  });

  it('leaves boolean flags and empty values alone', () => {
    expect(standard().apply({ credentials: { enabled: true, user: '' }, auth: false }, ctx())).toEqual({
      credentials: { enabled: true, user: '' },
      auth: false,
    });
  });

  it('drop removes the whole subtree', () => {
    const r = new Redactor({ strategies: { sensitive_field: 'drop' } });
    expect(r.apply({ a: 1, credentials: { user: 'bob' } }, ctx())).toEqual({ a: 1 });
  });

  it('leaves enum labels used as keys alone', () => {
    expect(standard().apply({ SECRET: 3, KMS_KEY: 2, by_type: { SECRET: [{ id: 'x' }] } }, ctx())).toEqual({
      SECRET: 3,
      KMS_KEY: 2,
      by_type: { SECRET: [{ id: 'x' }] },
    });
    // An upper-case environment variable holding a string is still a secret.
    expect(standard().apply({ DB_PASSWORD: 'hunter2' }, ctx())).toEqual({
      DB_PASSWORD: '[REDACTED:sensitive_field]',
    });
  });

  it('under standard only sensitive_key is active', () => {
    const input = {
      account_id: '123456789012',
      name: 'web-1',
      arn: 'arn:aws:ec2:us-east-1:123456789012:instance/i-1',
    };
    expect(standard().apply(input, ctx())).toBe(input);
  });
});

describe('identifier key rules under strict', () => {
  it('types values under account keys by shape', () => {
    const c = ctx();
    const out = strict().apply(
      {
        account_id: '111111111111',
        accounts: ['222222222222', '1b2c3d4e-1111-2222-3333-444455556666', 'acme-prod-1', '123456', 'prod'],
      },
      c,
    ) as { account_id: string; accounts: string[] };
    expect(out.account_id).toMatch(/^\d{12}$/);
    expect(out.account_id).not.toBe('111111111111');
    expect(out.accounts[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(out.accounts[4]).toMatch(/^acct-[0-9a-f]{10}$/);
    expect(c.report.pseudonymized).toMatchObject({
      aws_account_id: 2,
      azure_subscription_id: 1,
      gcp_project_id: 1,
      gcp_project_number: 1,
      cloud_account: 1,
    });
  });

  it('aws_account_id: pseudonymize also covers other account shapes', () => {
    const r = new Redactor({ strategies: { aws_account_id: 'pseudonymize' } }, { vault });
    const out = r.apply({ account_id: 'prod' }, ctx()) as { account_id: string };
    expect(out.account_id).toMatch(/^acct-/);
  });

  it('name and id are resource references only in asset-like objects', () => {
    const c = ctx();
    const out = strict().apply(
      {
        asset: { id: 'web-1', name: 'web-1', asset_type: 'EC2' },
        tool: { name: 'get_asset', description: 'Fetch one asset' },
        dataset: { name: 'prod', loaded_at: '2024-01-01' },
      },
      c,
    ) as Record<string, Record<string, string>>;
    expect(out.asset!.id).toMatch(/^res-[0-9a-f]{10}$/);
    expect(out.asset!.name).toBe(out.asset!.id);
    expect(out.tool).toEqual({ name: 'get_asset', description: 'Fetch one asset' });
    expect(out.dataset!.name).toMatch(/^ds-[0-9a-f]{10}$/);
  });

  it('defers to a detector that matches the whole value', () => {
    const c = ctx();
    const out = strict().apply(
      {
        source: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890',
        target: '0.0.0.0/0',
        ref: '9f86d081-884c-4d63-9a2b-1c5e3f0a7b21',
        note: '0b7e2c4a-1d3f-4a5b-8c6d-7e8f9a0b1c2d',
      },
      c,
    ) as Record<string, string>;
    expect(out.source).toMatch(/^arn:aws:ec2:us-east-1:\d{12}:instance\/i-[0-9a-f]{17}$/);
    expect(out.target).toBe('0.0.0.0/0');
    // uuid: keep makes the uuid detector inactive, so the rule's resource_name applies...
    expect(out.ref).toMatch(/^res-[0-9a-f]{10}$/);
    // ...while a UUID under a key no rule covers is left alone.
    expect(out.note).toBe('0b7e2c4a-1d3f-4a5b-8c6d-7e8f9a0b1c2d');
    expect(c.report.pseudonymized).toMatchObject({ aws_arn: 1, resource_name: 1 });
  });

  it('lists of references are pseudonymised item by item', () => {
    const out = strict().apply({ members: ['web-1', 'db-1'], nodes: [{ id: 'x', region: 'eu' }] }, ctx()) as {
      members: string[];
      nodes: Array<{ id: string }>;
    };
    expect(out.members.every((m) => m.startsWith('res-'))).toBe(true);
    expect(out.nodes[0]!.id).toMatch(/^res-/);
  });

  it('replaces names mentioned in free text of the same result', () => {
    const c = ctx();
    const out = strict().apply(
      { source: 'web-1', target: 'sg-app', summary: 'web-1 -> sg-app', label: 'web-1' },
      c,
    ) as Record<string, string>;
    expect(out.summary).toBe(`${out.source} -> ${out.target}`);
    // A string that is exactly a pseudonymised name is replaced too.
    expect(out.label).toBe(out.source);
    expect(c.report.pseudonymized?.resource_name_mention).toBe(3);
    const off = new Redactor({ strategies: STRICT_STRATEGIES, name_mentions: false }, { vault });
    expect(
      (off.apply({ source: 'web-1', summary: 'web-1 -> x' }, ctx()) as Record<string, string>).summary,
    ).toBe('web-1 -> x');
  });

  it('skips _meta, _annotations, cursor and next_cursor', () => {
    const input = {
      _meta: { account_id: '123456789012' },
      cursor: 'a@b.io',
      next_cursor: 'x',
      account_id: '123456789012',
    };
    const out = strict().apply(input, ctx()) as typeof input;
    expect(out._meta).toBe(input._meta);
    expect(out.cursor).toBe('a@b.io');
    expect(out.account_id).not.toBe('123456789012');
  });

  it('scans dict keys, so a map keyed by account gets new keys', () => {
    const out = strict().apply({ by_account: { '123456789012': 3 } }, ctx()) as {
      by_account: Record<string, number>;
    };
    const [key] = Object.keys(out.by_account);
    expect(key).toMatch(/^\d{12}$/);
    expect(key).not.toBe('123456789012');
    expect(vault.detokenize(key!)).toBe('123456789012');
  });

  it('supports extra key rules with requires_sibling, and refuses bad ones', () => {
    const r = new Redactor({
      extra_key_rules: [
        { name: 'ticket', entity: 'ticket_id', pattern: '^ticket$', requires_sibling: ['queue'] },
      ],
      strategies: { ticket_id: 'redact' },
    });
    expect(r.apply({ a: { ticket: 'T-1', queue: 'ops' }, b: { ticket: 'T-2' } }, ctx())).toEqual({
      a: { ticket: '[REDACTED:ticket_id]', queue: 'ops' },
      b: { ticket: 'T-2' },
    });
    expect(() => new Redactor({ extra_key_rules: [{ name: 'x', entity: 'y', pattern: '(' }] })).toThrow(
      /Bad options for transform 'redact'/,
    );
    expect(
      () => new Redactor({ extra_key_rules: [{ name: 'x', entity: 'y', pattern: 'x', colour: 1 }] }),
    ).toThrow(/unknown key rule option 'colour'/);
  });

  it('custom key rules may defer to a detector matching the whole value', () => {
    const rules = (defer: boolean) => [{ name: 'peer', entity: 'peer_name', pattern: '^peer$', defer }];
    const strategies = { peer_name: 'redact', email: 'hash' };
    expect(
      new Redactor({ extra_key_rules: rules(false), strategies }).apply({ peer: 'a@b.io' }, ctx()),
    ).toEqual({
      peer: '[REDACTED:peer_name]',
    });
    const deferred = new Redactor({ extra_key_rules: rules(true), strategies }).apply(
      { peer: 'a@b.io' },
      ctx(),
    ) as {
      peer: string;
    };
    expect(deferred.peer).toMatch(/^email:[0-9a-f]{12}$/);
  });

  it('covers tree parents and a summary that is exactly a name', () => {
    const out = strict().apply(
      { id: 'web-1', region: 'eu', parent_id: 'vpc-main', summary: 'web-1' },
      ctx(),
    ) as Record<string, string>;
    expect(out.parent_id).toMatch(/^res-/);
    expect(out.summary).toBe(out.id);
  });

  it('key_rules false or a list selects rules', () => {
    expect(
      new Redactor({ strategies: STANDARD_STRATEGIES, key_rules: false }).apply({ password: 'x' }, ctx()),
    ).toEqual({
      password: 'x',
    });
    const only = new Redactor({ strategies: STRICT_STRATEGIES, key_rules: ['hostname_key'] }, { vault });
    const out = only.apply({ hostname: 'web', account_id: 'prod' }, ctx()) as Record<string, string>;
    expect(out.hostname).not.toBe('web');
    expect(out.account_id).toBe('prod');
  });

  it('has the reference key rules', () => {
    expect(builtinKeyRules().map((r) => r.name)).toEqual([
      'sensitive_key',
      'account_id_key',
      'subscription_key',
      'tenant_key',
      'gcp_project_key',
      'gcp_project_number_key',
      'resource_name_key',
      'resource_ref_key',
      'dataset_key',
      'dataset_listing_name_key',
      'asset_name_key',
      'asset_id_key',
      'hostname_key',
    ]);
  });
});

describe('tag maps', () => {
  it('person-like keys are person, other values tag_value, allow-listed keys only scanned', () => {
    const c = ctx();
    const out = strict().apply(
      {
        tags: {
          Owner: 'alice@example.com',
          owner: 'web-team',
          env: 'prod',
          CostCenter: 'cc-1',
          Team: 'payments',
        },
      },
      c,
    ) as { tags: Record<string, string> };
    expect(out.tags.Owner).toMatch(/^person-[0-9a-f]{10}$/);
    expect(out.tags.owner).toMatch(/^person-[0-9a-f]{10}$/);
    expect(out.tags.env).toBe('prod');
    expect(out.tags.CostCenter).toBe('cc-1');
    expect(out.tags.Team).toMatch(/^tag-[0-9a-f]{10}$/);
    expect(c.report.pseudonymized).toMatchObject({ person: 2, tag_value: 1 });
  });

  it('handles the AWS [{Key, Value}] form', () => {
    const out = strict().apply(
      {
        Tags: [
          { Key: 'Owner', Value: 'bob' },
          { Key: 'env', Value: 'dev' },
        ],
      },
      ctx(),
    ) as {
      Tags: Array<{ Key: string; Value: string }>;
    };
    expect(out.Tags[0]!.Key).toBe('Owner');
    expect(out.Tags[0]!.Value).toMatch(/^person-/);
    expect(out.Tags[1]).toEqual({ Key: 'env', Value: 'dev' });
  });

  it('drop strategies remove tag values except allow-listed ones', () => {
    const r = new Redactor({ strategies: { tag_value: 'drop', person: 'drop' } });
    expect(r.apply({ tags: { env: 'prod', Owner: 'alice', Name: 'web' } }, ctx())).toEqual({
      tags: { env: 'prod' },
    });
  });

  it('a sensitive tag key is still a secret', () => {
    expect(standard().apply({ tags: { db_password: 'x1' } }, ctx())).toEqual({
      tags: { db_password: '[REDACTED:sensitive_field]' },
    });
  });
});

describe('caching and the vault TTL', () => {
  it('asks the vault on every use, so an expired pseudonym is re-issued and stays reversible', async () => {
    const { TokenVault } = await import('../src/index.js');
    let now = 1_000_000;
    const vault = new TokenVault({ key: 'k', ttlSeconds: 10, clock: () => now, saveOnExit: false });
    const r = new Redactor({ strategies: { email: 'pseudonymize' } }, { vault });
    const first = r.apply('mail a@corp.com', ctx()) as string;
    now += 60_000;
    const second = r.apply('mail a@corp.com', ctx()) as string;
    expect(second).toBe(first);
    expect(vault.detokenizeText(second)).toBe('mail a@corp.com');
  });
});
