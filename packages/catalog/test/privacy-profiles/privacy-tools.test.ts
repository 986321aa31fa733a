/**
 * The privacy tools end to end under the real profiles: the results the reference documents
 * for `privacy_status`, `preview_transform`, `list_detectors`, `privacy_audit_log` and
 * `reveal_token`, produced by @cloudg/policy's introspection through the catalog layer.
 */
import { describe, expect, it } from 'vitest';
import { ANALYST, LEAD, LOCAL, profileLayer } from './support.js';

const SAMPLE = {
  account: '123456789012',
  arn: 'arn:aws:iam::123456789012:role/deploy',
  note: 'password=Tr0ub4dor&3 and key AKIAIOSFODNN7EXAMPLE',
  cidr: '0.0.0.0/0',
  ip: '10.20.30.40',
  owner: 'bob@example.com',
};

describe('under open', () => {
  it('privacy_status describes the policy as it applies to the local caller', async () => {
    const { layer } = await profileLayer('open');
    const out = (await layer.callTool('privacy_status', {})).structured;
    expect(out).toMatchObject({
      policy: 'open',
      description: 'No transforms, no restrictions. Trusted local experiments only.',
      loaded_from: 'profile:open',
      extends: [],
      principal: { id: 'local', roles: ['default', 'local'] },
      max_sensitivity: null,
      denied_capabilities: [],
      visible_tools: layer.listTools(LOCAL).length,
      output_pipeline: [],
      pseudonymisation: { active: false, vault_scope: 'global', vault_entries: 0, by_entity: {} },
      audit_enabled: false,
    });
  });

  it('preview_transform changes nothing; privacy_audit_log is empty; reveal_token finds nothing', async () => {
    const { layer } = await profileLayer('open');
    const data = {
      arn: 'arn:aws:iam::111111111111:role/app-role',
      password: 'hunter2',
      AccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    };
    expect((await layer.callTool('preview_transform', { data })).structured).toEqual({
      policy: 'open',
      tool: null,
      transformed: data,
      report: {},
    });
    expect((await layer.callTool('privacy_audit_log', { limit: 3 })).structured).toEqual({
      policy: 'open',
      audit_enabled: false,
      scope: 'own',
      total: 0,
      entries: [],
    });
    expect((await layer.callTool('reveal_token', { token: 'arn:aws:iam::1:role/x' })).structured).toEqual({
      pseudonym: 'arn:aws:iam::1:role/x',
      found: false,
      value: null,
      replaced: 0,
    });
  });

  it('list_detectors lists the credential detectors without a strategy', async () => {
    const { layer } = await profileLayer('open');
    const out = (await layer.callTool('list_detectors', { category: 'credential' })).structured as {
      policy: string;
      detectors: Record<string, unknown>[];
    };
    expect(out.policy).toBe('open');
    // The reference's result, field for field.
    expect(out.detectors).toEqual([
      {
        name: 'aws_access_key_id',
        entity: 'aws_access_key_id',
        category: 'credential',
        confidence: 0.99,
        description: 'AWS access key IDs (long-term AKIA, temporary ASIA)',
        enabled: true,
      },
    ]);
    for (const d of out.detectors) expect(d.category).toBe('credential');
    for (const d of out.detectors) expect(d).not.toHaveProperty('strategy');
  });
});

describe('preview_transform: the same sample under standard and strict', () => {
  it('standard redacts the password and masks the key, keeping identifiers', async () => {
    const { layer } = await profileLayer('standard');
    const out = (await layer.callTool('preview_transform', { data: SAMPLE })).structured as {
      transformed: Record<string, string>;
    };
    expect(out.transformed).toEqual({
      ...SAMPLE,
      note: 'password=[REDACTED:password] and key AKIA************MPLE',
    });
  });

  it('strict pseudonymises identifiers and redacts both credentials', async () => {
    const { layer } = await profileLayer('strict');
    const out = (await layer.callTool('preview_transform', { data: JSON.stringify(SAMPLE) })).structured as {
      transformed: Record<string, string>;
    };
    const t = out.transformed;
    expect(t.account).toMatch(/^\d{12}$/);
    expect(t.account).not.toBe(SAMPLE.account);
    expect(t.arn).toMatch(/^arn:aws:iam::\d{12}:role\/res-[0-9a-f]{10}$/);
    expect(t.note).toBe('password=[REDACTED:password] and key [REDACTED:aws_access_key_id]');
    expect(t.cidr).toBe('0.0.0.0/0');
    expect(t.ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(t.ip).not.toBe(SAMPLE.ip);
    expect(t.owner).not.toBe(SAMPLE.owner);
    expect(t.owner).toMatch(/@.*\.example$/);
  });
});

describe('soc-analyst: a lead reveals what an analyst saw', () => {
  it('reverses a pseudonym, an aliased ARN and an alias; the analyst cannot see the tool', async () => {
    const { layer } = await profileLayer('soc-analyst');
    const seen = (await layer.callTool('get_asset', { ref: 'web-1' }, { principal: ANALYST })).structured as {
      name: string;
      arn: string;
    };
    await expect(
      layer.callTool('reveal_token', { token: seen.name }, { principal: ANALYST }),
    ).rejects.toThrow('Unknown tool: reveal_token');
    const name = await layer.callTool('reveal_token', { token: seen.name }, { principal: LEAD });
    expect(name.structured).toEqual({
      pseudonym: seen.name,
      found: true,
      value: 'web-1',
      entity_type: 'resource_name',
    });
    const arn = await layer.callTool('reveal_token', { token: seen.arn }, { principal: LEAD });
    expect(arn.structured).toEqual({
      pseudonym: seen.arn,
      found: true,
      value: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
      replaced: 2,
    });
    const alias = await layer.callTool('reveal_token', { token: 'prod-payments' }, { principal: LEAD });
    expect(alias.structured).toMatchObject({ found: true, value: '111111111111', replaced: 1 });
  });

  it('privacy_audit_log shows the lead its own entries, the reveal among them', async () => {
    const { layer } = await profileLayer('soc-analyst');
    await layer.callTool('reveal_token', { token: 'res-0000000000' }, { principal: LEAD });
    const out = (await layer.callTool('privacy_audit_log', {}, { principal: LEAD })).structured as {
      policy: string;
      audit_enabled: boolean;
      scope: string;
      entries: { name: string; principal: string; decision: string; arguments: Record<string, string> }[];
    };
    expect(out).toMatchObject({ policy: 'soc-analyst', audit_enabled: true, scope: 'own' });
    const revealEntry = out.entries.find((e) => e.name === 'reveal_token');
    expect(revealEntry).toMatchObject({ decision: 'allowed', principal: 'lee' });
    expect(JSON.stringify(out.entries)).not.toContain('res-0000000000');
    for (const e of out.entries) expect(e.principal).toBe('lee');
  });
});

describe('list_detectors: every secret detector under every profile', () => {
  // The secret formats issue 11 added are listed like the reference's own secrets, each with
  // the strategy the profile gives the secret category.
  const ADDED = [
    'slack_webhook_url',
    'discord_webhook_url',
    'twilio_key',
    'age_secret_key',
    'docker_config_auth',
  ];
  const EXPECTED: Record<string, string | undefined> = {
    open: undefined,
    standard: 'redact',
    strict: 'redact',
    'soc-analyst': 'redact',
  };

  for (const [profile, strategy] of Object.entries(EXPECTED)) {
    it(`${profile}: ${strategy ?? 'no strategy'} for the added secret formats`, async () => {
      const { layer } = await profileLayer(profile);
      const out = (await layer.callTool('list_detectors', { category: 'secret' }, { principal: LEAD }))
        .structured as { detectors: Record<string, unknown>[] };
      // The same catalogue under every profile: the policy's listing, not a fixed list.
      const catalogue = (
        await (await profileLayer('open')).layer.callTool('list_detectors', { category: 'secret' })
      ).structured as { detectors: { name: string }[] };
      expect(catalogue.detectors.length).toBeGreaterThan(100);
      expect(out.detectors.map((d) => d.name)).toEqual(catalogue.detectors.map((d) => d.name));
      const names = out.detectors.map((d) => d.name);
      for (const name of ADDED) expect(names).toContain(name);
      for (const d of out.detectors) {
        expect(d.category).toBe('secret');
        if (strategy === undefined) expect(typeof d.description).toBe('string');
        if (strategy === undefined) expect(d).not.toHaveProperty('strategy');
        // strict and soc-analyst drop private keys; every other secret takes the category's strategy.
        else if (d.entity !== 'private_key') expect(d).toMatchObject({ strategy, active: true });
      }
    });
  }
});
