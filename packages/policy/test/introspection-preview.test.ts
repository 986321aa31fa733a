/** `preview_transform`: sample data through the caller's pipeline, with a throwaway vault. */
import { describe, expect, it } from 'vitest';
import { load, local } from './helpers.js';
import { ann, privacyLayer } from './introspection.fixtures.js';

const SAMPLE = {
  account: '123456789012',
  arn: 'arn:aws:iam::123456789012:role/deploy',
  note: 'password=Tr0ub4dor&3 and key AKIAIOSFODNN7EXAMPLE',
  cidr: '0.0.0.0/0',
  ip: '10.20.30.40',
  owner: 'bob@example.com',
};

describe('preview_transform', () => {
  it('under open returns the data unchanged with an empty report', async () => {
    const { call } = privacyLayer('open');
    const data = {
      arn: 'arn:aws:iam::111111111111:role/app-role',
      password: 'hunter2',
      AccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    };
    expect(await call('preview_transform', { data })).toEqual({
      policy: 'open',
      tool: null,
      transformed: data,
      report: {},
    });
  });

  it('under standard redacts and masks but keeps identifiers', async () => {
    const { transformed, report } = await load('standard').introspection.preview(SAMPLE, {
      principal: local,
    });
    expect(transformed).toEqual({
      ...SAMPLE,
      note: 'password=[REDACTED:password] and key AKIA************MPLE',
    });
    expect(report).toMatchObject({ redacted: { password: 1 }, masked: { aws_access_key_id: 1 } });
  });

  it('under strict pseudonymises with a vault of its own and stores nothing', async () => {
    const policy = load('strict');
    const { transformed, report } = await policy.introspection.preview(SAMPLE, { principal: local });
    const out = transformed as Record<string, string>;
    expect(out.account).toMatch(/^\d{12}$/);
    expect(out.account).not.toBe(SAMPLE.account);
    expect(out.arn).toBe(`arn:aws:iam::${out.account}:role/${out.arn?.split('/')[1]}`);
    expect(out.arn).toMatch(/role\/res-[0-9a-f]{10}$/);
    expect(out.note).toBe('password=[REDACTED:password] and key [REDACTED:aws_access_key_id]');
    expect(out.cidr).toBe('0.0.0.0/0');
    expect(out.ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(out.owner).toMatch(/^user-[0-9a-f]{8}@d-[0-9a-f]{10}\.example$/);
    expect(report).toMatchObject({
      pseudonymized: { aws_account_id: 1, aws_arn: 1, private_ip: 1, email: 1 },
      redacted: { password: 1, aws_access_key_id: 1 },
    });
    // Nothing reached the policy's vault: its pseudonyms are not the preview's.
    expect(policy.vault.stats?.().entries).toBe(0);
    expect(policy.vault.detokenize(out.account as string)).toBeUndefined();
    const real = policy.vault.pseudonymize(SAMPLE.account, 'aws_account_id');
    expect(real).not.toBe(out.account);
  });

  it('draws new pseudonyms on every preview, so one cannot be matched against another', async () => {
    const policy = load('strict');
    const first = await policy.introspection.preview({ ip: '10.20.30.40' }, { principal: local });
    const second = await policy.introspection.preview({ ip: '10.20.30.40' }, { principal: local });
    expect(first.transformed).not.toEqual(second.transformed);
  });

  it('previews a tool with its own pipeline: the soc-analyst account alias appears only there', async () => {
    const { call } = privacyLayer('soc-analyst');
    const data = { account_id: '111111111111' };
    const generic = await call('preview_transform', { data }, ann);
    const forTool = await call('preview_transform', { data, tool: 'get_asset' }, ann);
    expect((generic.transformed as Record<string, string>).account_id).toMatch(/^\d{12}$/);
    expect(forTool).toMatchObject({
      policy: 'soc-analyst',
      tool: 'get_asset',
      transformed: { account_id: 'prod-payments' },
      report: { aliased: 1 },
    });
  });

  it('returns a JSON report', async () => {
    const { report } = await load('strict').introspection.preview('10.20.30.40', { principal: local });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});
