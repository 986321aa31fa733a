import { describe, expect, it } from 'vitest';
import {
  Depseudonymizer,
  IdentifierLexicon,
  isDistinctiveIdentifier,
  MentionFinder,
  Redactor,
} from '../src/index.js';
import { ctx, STANDARD_STRATEGIES, STRICT_STRATEGIES, testVault } from './helpers.js';

const vault = testVault();
const strict = () => new Redactor({ strategies: STRICT_STRATEGIES }, { vault });
const standard = () => new Redactor({ strategies: STANDARD_STRATEGIES }, { vault });

const lexicon = new IdentifierLexicon([
  ['bastion', 'resource_name'],
  ['prod', 'resource_name'],
  ['payments-ledger-db', 'resource_name'],
  ['/aws/lambda/api-handler', 'resource_name'],
  ['111111111111', 'aws_account_id'],
  ['team-falcon-7', 'tag_value'],
  ['Workloads', 'resource_name'],
  ['analytics', 'resource_name'],
  ['prod', 'tag_value'],
]);

describe('the distinctive-identifier rule', () => {
  it.each([
    ['web', false],
    ['prod', false],
    ['default', false],
    ['bastion', false],
    ['analytics', true],
    ['web-1', true],
    ['sg-web', true],
    ['i-0a', true],
    ['a-1', false],
    ['111111111111', true],
    ['/aws/lambda/api-handler', true],
  ])('%s distinctive: %s', (value, expected) => {
    expect(isDistinctiveIdentifier(value)).toBe(expected);
  });

  it('finds distinctive values between non-word characters only', () => {
    const finder = new MentionFinder(['payments-ledger-db', 'web-1', '/aws/lambda/api-handler', 'prod']);
    const text =
      'web-1 talks to payments-ledger-db; web-10 and xpayments-ledger-db do not. Logs: /aws/lambda/api-handler.';
    expect(finder.find(text).map((f) => f.value)).toEqual([
      'web-1',
      'payments-ledger-db',
      '/aws/lambda/api-handler',
    ]);
    expect(finder.find('prod traffic')).toEqual([]);
  });

  it('prefers the longest value starting at a place', () => {
    const finder = new MentionFinder(['web-1', 'web-1.internal']);
    expect(finder.find('see web-1.internal now').map((f) => f.value)).toEqual(['web-1.internal']);
  });

  it('the first listing of a value decides its entity', () => {
    expect(lexicon.entityOf('prod')).toBe('resource_name');
    expect(lexicon.entityOf('nothing-here')).toBeUndefined();
  });

  it('never lists short values, small numbers or booleans', () => {
    const l = new IdentifierLexicon([
      ['ab', 'resource_name'],
      ['42', 'resource_name'],
      ['true', 'tag_value'],
      ['123456', 'aws_account_id'],
    ]);
    expect([...l.entries()].map(([v]) => v)).toEqual(['123456']);
  });
});

describe('the redactor with known identifiers', () => {
  it('pseudonymises a known value whatever key holds it, with the same pseudonym everywhere', () => {
    const out = strict().apply(
      { name: 'bastion', type: 'EC2_INSTANCE', note: 'bastion', list: ['bastion'] },
      ctx({ identifiers: lexicon }),
    ) as Record<string, unknown>;
    expect(out.name).not.toBe('bastion');
    expect(out.note).toBe(out.name);
    expect(out.list).toEqual([out.name]);
    expect(out.type).toBe('EC2_INSTANCE');
  });

  it('pseudonymises known values used as object keys (aggregations)', () => {
    const out = strict().apply(
      { by_account: { '111111111111': 3 }, by_tag: { 'team-falcon-7': 2, other: 1 } },
      ctx({ identifiers: lexicon }),
    ) as { by_account: Record<string, number>; by_tag: Record<string, number> };
    expect(Object.keys(out.by_account)).not.toContain('111111111111');
    expect(Object.values(out.by_account)).toEqual([3]);
    expect(Object.keys(out.by_tag)).not.toContain('team-falcon-7');
    expect(out.by_tag.other).toBe(1);
  });

  it('pseudonymises distinctive mentions in free text and leaves ordinary words alone', () => {
    const text = 'the default web tier for prod traffic reaches payments-ledger-db via bastion';
    const out = strict().apply({ description: text }, ctx({ identifiers: lexicon })) as {
      description: string;
    };
    expect(out.description).not.toContain('payments-ledger-db');
    for (const word of ['default', 'web', 'tier', 'prod', 'traffic', 'bastion']) {
      expect(out.description.split(/\s+/)).toContain(word);
    }
  });

  it('keeps everything real under a policy that keeps identifiers', () => {
    const value = { name: 'bastion', counts: { '111111111111': 1 }, note: 'payments-ledger-db is up' };
    expect(standard().apply(value, ctx({ identifiers: lexicon }))).toEqual(value);
  });

  it('a secret-like field is still redacted when its value equals a known name', () => {
    const out = strict().apply({ password: 'bastion' }, ctx({ identifiers: lexicon }));
    expect(out).toEqual({ password: '[REDACTED:sensitive_field]' });
  });

  it('puts the caller’s pseudonym back where a restored value would show', () => {
    const token = vault.pseudonymize('some-real-thing', 'resource_name');
    const restored = new Map<string, string>();
    const input = new Depseudonymizer({}, { vault }).apply(
      { asset: token },
      ctx({ direction: 'input', restored }),
    );
    expect(input).toEqual({ asset: 'some-real-thing' });
    expect(restored.get('some-real-thing')).toBe(token);
    const out = strict().apply(
      {
        error: { value: 'some-real-thing' },
        message: 'asset some-real-thing was not found',
        key: { 'some-real-thing': 1 },
      },
      ctx({ restored }),
    );
    expect(JSON.stringify(out)).not.toContain('some-real-thing');
    expect(out).toEqual({
      error: { value: token },
      message: `asset ${token} was not found`,
      key: { [token]: 1 },
    });
  });
});

describe('secret name/value pairs', () => {
  it.each([
    [{ name: 'DB_PASS', value: 's3cr3t-Planted-Value-91' }, 'value'],
    [{ Name: 'API_TOKEN', Value: 's3cr3t-Planted-Value-91' }, 'Value'],
    [{ ParameterKey: 'DbPassword', ParameterValue: 's3cr3t-Planted-Value-91' }, 'ParameterValue'],
  ])('%o is a secret under standard', (pair, valueKey) => {
    const out = standard().apply({ environment: [pair] }, ctx()) as {
      environment: Array<Record<string, string>>;
    };
    expect(out.environment[0]![valueKey]).toBe('[REDACTED:sensitive_field]');
    expect(JSON.stringify(out)).not.toContain('s3cr3t-Planted-Value-91');
  });

  it('a pair with an ordinary name is left as it is', () => {
    const value = { environment: [{ name: 'LOG_LEVEL', value: 'debug' }] };
    expect(standard().apply(value, ctx())).toEqual(value);
  });
});

describe('mention search stays linear on hostile text', () => {
  it('many identifiers sharing a first word, and a megabyte of that word, cost one pass', () => {
    // 32 values of different lengths that all start with the word `a`, and text made of `a`s:
    // every word run is a candidate for every length. Before the rolling hash this took seconds.
    const shared = new IdentifierLexicon(
      Array.from({ length: 32 }, (_, i) => [`a ${'b'.repeat(200 + i)}`, 'tag_value'] as const),
    );
    const text = 'a '.repeat(500_000);
    expect(shared.mentionsIn(text)).toEqual([]);
    const planted = `x a ${'b'.repeat(210)} y`;
    expect(shared.mentionsIn(planted)).toEqual([{ start: 2, end: 2 + 2 + 210, entity: 'tag_value' }]);
  });

  it('a megabyte of distinct first words that are not identifiers', () => {
    const many = new IdentifierLexicon(
      Array.from({ length: 5000 }, (_, i) => [`api-${i}.svc.example`, 'resource_name'] as const),
    );
    expect(many.mentionsIn('api-1 '.repeat(200_000))).toEqual([]);
    expect(many.mentionsIn('call api-42.svc.example now')).toEqual([
      { start: 5, end: 23, entity: 'resource_name' },
    ]);
  });
});

describe('what the review of the first version found', () => {
  it('a secret-named pair leaves the key rules of its siblings in force', () => {
    const out = standard().apply(
      { name: 'DB_PASS', value: 'p1', client_secret: 'zzz-plain-secret', password: 'hunter2prod' },
      ctx(),
    ) as Record<string, string>;
    expect(out).toEqual({
      name: 'DB_PASS',
      value: '[REDACTED:sensitive_field]',
      client_secret: '[REDACTED:sensitive_field]',
      password: '[REDACTED:sensitive_field]',
    });
  });

  it('a known value that is a secret is redacted, never pseudonymised into the vault', () => {
    const withKey = new IdentifierLexicon([['AKIAIOSFODNN7EXAMPLE', 'tag_value']]);
    const out = strict().apply(
      { note: 'AKIAIOSFODNN7EXAMPLE', tags: { k: 'AKIAIOSFODNN7EXAMPLE' } },
      ctx({ identifiers: withKey }),
    );
    expect(JSON.stringify(out)).not.toContain('tag-');
    expect(JSON.stringify(out)).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('a restored value inside longer text goes back as the caller wrote it, however plain', () => {
    const token = vault.pseudonymize('bastion', 'resource_name');
    const restored = new Map<string, string>();
    const args = new Depseudonymizer({}, { vault }).apply(
      { ref: token, query: `${token} x` },
      ctx({ direction: 'input', restored }),
    );
    expect(args).toEqual({ ref: 'bastion', query: 'bastion x' });
    const out = strict().apply({ message: "No asset 'bastion' here", value: 'bastion x' }, ctx({ restored }));
    expect(out).toEqual({ message: `No asset '${token}' here`, value: `${token} x` });
  });

  it('a caller whose plan keeps identifiers gets real values, not its pseudonyms back', () => {
    const restored = new Map([['bastion', 'res-0000000000']]);
    expect(standard().apply({ name: 'bastion' }, ctx({ restored }))).toEqual({ name: 'bastion' });
  });

  it('a known value the sanitizer fenced is still pseudonymised inside the fence', () => {
    const fenced = '⟦untrusted⟧ team-falcon-7 ⟦/untrusted⟧';
    const out = strict().apply({ k: fenced, [fenced]: 1 }, ctx({ identifiers: lexicon })) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(out)).not.toContain('team-falcon-7');
    expect(String(out.k)).toMatch(/^⟦untrusted⟧ .+ ⟦\/untrusted⟧$/);
  });

  it('a key first seen with no identifiers is checked again once they are known', () => {
    const r = strict();
    const key = 'backups of payments-ledger-db';
    expect(Object.keys(r.apply({ [key]: 2 }, ctx()) as object)).toEqual([key]);
    expect(Object.keys(r.apply({ [key]: 2 }, ctx({ identifiers: lexicon })) as object)).not.toContain(key);
  });

  it.each([
    [{ key: 'PASS', value: 31 }],
    [{ name: 'pass_rate', value: '0.95' }],
    [{ Name: 'PassRate', Value: '0.95' }],
  ])('%o is not a secret', (pair) => {
    expect(standard().apply(pair, ctx())).toEqual(pair);
  });
});
