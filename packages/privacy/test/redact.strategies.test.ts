import { describe, expect, it } from 'vitest';
import { buildTransform, Redactor, TransformOptionsError } from '../src/index.js';
import { parseStrategy } from '../src/transforms/strategies.js';
import { ctx, testVault } from './helpers.js';

const MSG = 'alice@corp.com from 10.0.1.5 at 2024-05-01T12:30:00Z key AKIAIOSFODNN7EXAMPLE';
const DOC = { msg: MSG, other: 1 };
const vault = testVault();

function run(strategy: unknown, value: unknown = DOC) {
  const r = new Redactor(
    {
      strategies: { email: strategy, private_ip: strategy, timestamp: strategy, aws_access_key_id: strategy },
    },
    { vault },
  );
  const c = ctx();
  return { value: r.apply(value, c), report: c.report };
}

describe('redact strategies (11.2)', () => {
  it('redact', () => {
    const { value, report } = run('redact');
    expect(value).toEqual({
      msg: '[REDACTED:email] from [REDACTED:private_ip] at [REDACTED:timestamp] key [REDACTED:aws_access_key_id]',
      other: 1,
    });
    expect(report.redacted).toEqual({ email: 1, private_ip: 1, timestamp: 1, aws_access_key_id: 1 });
  });

  it('mask', () => {
    expect(run('mask').value).toEqual({
      msg: '**********.com from ****.1.5 at ****************:00Z key ****************MPLE',
      other: 1,
    });
  });

  it('hash gives <entity>:<12 hex>, stable for a key', () => {
    const a = run('hash');
    const b = run('hash');
    expect((a.value as { msg: string }).msg).toMatch(
      /^email:[0-9a-f]{12} from private_ip:[0-9a-f]{12} at timestamp:[0-9a-f]{12} key aws_access_key_id:[0-9a-f]{12}$/,
    );
    expect(a.value).toEqual(b.value);
    expect(a.report.hashed).toEqual({ email: 1, private_ip: 1, timestamp: 1, aws_access_key_id: 1 });
  });

  it('pseudonymize uses the vault and is reversible', () => {
    const { value, report } = run('pseudonymize');
    const msg = (value as { msg: string }).msg;
    expect(msg).toMatch(
      /^user-[0-9a-f]{8}@d-[0-9a-f]{10}\.example from 10\.\d+\.\d+\.\d+ at timestamp-[0-9a-f]{10} key AKIA[A-Z0-9]{16}$/,
    );
    expect(vault.detokenizeText(msg)).toBe(MSG);
    expect(report.pseudonymized).toEqual({ email: 1, private_ip: 1, timestamp: 1, aws_access_key_id: 1 });
  });

  it('generalize', () => {
    expect(run('generalize').value).toEqual({
      msg: '*@corp.com from 10.0.1.0/24 at 2024-05-01 key <aws_access_key_id>',
      other: 1,
    });
  });

  it('drop removes the field that contains the value', () => {
    expect(run('drop').value).toEqual({ other: 1 });
    expect(run('drop', MSG).value).toBe('[REDACTED:content]');
    expect(run('drop', [MSG, 'x']).value).toEqual(['x']);
  });

  it('keep leaves the value and returns the same object', () => {
    const { value, report } = run('keep');
    expect(value).toBe(DOC);
    expect(report).toEqual({});
  });

  it.each([
    [
      { strategy: 'mask', keep_first: 2, keep_last: 0, char: '#', preserve: '@.' },
      'email',
      'ab@cd.com',
      'ab@##.###',
    ],
    [
      { strategy: 'hash', length: 6, template: '<{entity}#{digest}>' },
      'email',
      'ab@cd.com',
      /^<email#[0-9a-f]{6}>$/,
    ],
    [{ strategy: 'generalize', ipv4_prefix: 16 }, 'private_ip', '10.1.2.3', '10.1.0.0/16'],
    [{ strategy: 'generalize', keep_labels: 3 }, 'hostname', 'db1.eu.prod.corp.com', '*.prod.corp.com'],
    [
      'generalize',
      'aws_arn',
      'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc',
      'arn:aws:ec2:us-east-1:*:instance/*',
    ],
    [
      'generalize',
      'azure_resource_id',
      '/subscriptions/1b2c3d4e-1111-2222-3333-444455556666/resourceGroups/prod-rg/providers/Microsoft.Compute/virtualMachines/web-vm-01',
      '/subscriptions/*/resourceGroups/*/providers/Microsoft.Compute/virtualMachines/*',
    ],
    ['mask', 'aws_account_id', 'account 123456789012', 'account ********9012'],
    ['mask', 'email', 'a@b.io', '**b.io'],
  ])('%j on %s: %s', (strategy, entity, input, expected) => {
    const r = new Redactor({ strategies: { [entity]: strategy } }, { vault });
    const out = r.apply({ v: input }, ctx()) as { v: string };
    if (expected instanceof RegExp) expect(out.v).toMatch(expected);
    else expect(out.v).toBe(expected);
  });

  it('redact text template with {entity} and {length}', () => {
    const r = new Redactor({
      strategies: { sensitive_field: { strategy: 'redact', text: '<{entity}: {length} chars withheld>' } },
    });
    expect(r.apply({ password: 'hunter2' }, ctx())).toEqual({
      password: '<sensitive_field: 7 chars withheld>',
    });
  });

  it('mask keeps nothing of short values', () => {
    const r = new Redactor({ strategies: { sensitive_field: { strategy: 'mask', keep_first: 3 } } });
    // keep_first + keep_last >= length: nothing at the start, min(keep_last, length // 4) at the end.
    expect(r.apply({ pwd: 'abcd', password: 'abcdef' }, ctx())).toEqual({ pwd: '****', password: '*****f' });
  });

  it('generalize leaves special IPs and /0 routes alone and buckets numbers', () => {
    const r = new Redactor({ strategies: { network: 'generalize' } });
    expect(r.apply('open to 0.0.0.0/0 via 169.254.169.254', ctx())).toBe(
      'open to 0.0.0.0/0 via 169.254.169.254',
    );
    const b = new Redactor({
      extra_key_rules: [{ name: 'age', entity: 'age', pattern: '^age$', scalars: true }],
      strategies: { age: { strategy: 'bucket', bucket: 10 } },
    });
    expect(b.apply({ age: 57 }, ctx())).toEqual({ age: '50-60' });
  });

  it('does not count values a strategy leaves unchanged', () => {
    const r = new Redactor({ strategies: { network: 'pseudonymize' } }, { vault });
    const c = ctx();
    expect(r.apply({ ingress: '0.0.0.0/0', imds: '169.254.169.254' }, c)).toEqual({
      ingress: '0.0.0.0/0',
      imds: '169.254.169.254',
    });
    expect(c.report).toEqual({});
  });

  it('pseudonymize without a vault falls back to hash', () => {
    const r = new Redactor({ strategies: { email: 'pseudonymize' } });
    const c = ctx();
    expect(r.apply('mail bob@corp.com', c)).toMatch(/^mail email:[0-9a-f]{12}$/);
    expect(c.report.hashed).toEqual({ email: 1 });
  });

  it('accepts the strategy forms and aliases', () => {
    expect(parseStrategy(true).kind).toBe('redact');
    expect(parseStrategy(false).kind).toBe('keep');
    expect(parseStrategy(null).kind).toBe('keep');
    for (const [alias, kind] of [
      ['pseudonymise', 'pseudonymize'],
      ['tokenize', 'pseudonymize'],
      ['tokenise', 'pseudonymize'],
      ['generalise', 'generalize'],
      ['bucket', 'generalize'],
      ['remove', 'drop'],
      ['replace', 'redact'],
      ['none', 'keep'],
      ['allow', 'keep'],
    ]) {
      expect(parseStrategy(alias).kind).toBe(kind);
    }
    expect(parseStrategy({ type: 'mask', keep_last: 2 })).toEqual({
      kind: 'mask',
      options: { keep_last: 2 },
    });
    expect(parseStrategy({ kind: 'hash' }).kind).toBe('hash');
  });

  it('refuses an unknown strategy or strategy option as a bad transform option', () => {
    expect(() => buildTransform({ type: 'redact', options: { strategies: { email: 'scramble' } } })).toThrow(
      TransformOptionsError,
    );
    expect(() =>
      buildTransform({ type: 'redact', options: { strategies: { email: { strategy: 'mask', colour: 1 } } } }),
    ).toThrow(/Bad options for transform 'redact'/);
  });
});

describe('choosing a strategy', () => {
  it('tries the refined entity, its parents, the detector name, the category, then the default', () => {
    const r = new Redactor(
      {
        strategies: { ip_address: 'redact', private_ip: 'keep', ipv4: 'hash', network: 'pseudonymize' },
      },
      { vault },
    );
    const out = r.apply('10.0.1.5 54.12.33.4 fe80::1 00:1a:2b:3c:4d:5e', ctx()) as string;
    expect(out).toMatch(
      /^10\.0\.1\.5 \[REDACTED:public_ip\] \[REDACTED:special_ip\] [0-9a-f]{2}(?::[0-9a-f]{2}){5}$/,
    );
    expect(out.endsWith('00:1a:2b:3c:4d:5e')).toBe(false);
  });

  it('uses the default option or a default key for everything else', () => {
    expect(new Redactor({ default: 'redact' }).apply('mail a@b.io', ctx())).toBe('mail [REDACTED:email]');
    expect(
      new Redactor({ strategies: { default: 'redact', ipv4: 'keep' } }).apply('a@b.io 10.0.0.1', ctx()),
    ).toBe('[REDACTED:email] 10.0.0.1');
  });

  it('allow_pseudonymize false turns pseudonymize into keep', () => {
    const r = new Redactor({ strategies: { email: 'pseudonymize' }, allow_pseudonymize: false }, { vault });
    expect(r.apply('a@corp.com', ctx())).toBe('a@corp.com');
  });

  it('respects min_confidence and disabled detectors', () => {
    const text = 'Qm9vb3RzdHJhcEtleTEyMzQ1Njc4OTBhYmNkZWZn and a@b.io';
    expect(
      new Redactor({ strategies: { secret: 'redact', email: 'redact' }, min_confidence: 0.8 }).apply(
        text,
        ctx(),
      ),
    ).toBe('Qm9vb3RzdHJhcEtleTEyMzQ1Njc4OTBhYmNkZWZn and [REDACTED:email]');
    expect(
      new Redactor({
        strategies: { secret: 'redact', email: 'redact' },
        disabled_detectors: ['email'],
      }).apply(text, ctx()),
    ).toBe('[REDACTED:secret_value] and a@b.io');
  });

  it('never mutates its input', () => {
    const input = { password: 'x1', list: [{ email: 'a@b.io' }], nested: { ok: 1 } };
    const copy = structuredClone(input);
    const out = new Redactor({ strategies: { secret: 'redact', pii: 'redact' } }).apply(
      input,
      ctx(),
    ) as typeof input;
    expect(input).toEqual(copy);
    expect(out.nested).toBe(input.nested);
  });
});
