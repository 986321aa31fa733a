import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AliasMap,
  buildTransform,
  KeyRename,
  RegexReplace,
  Substitution,
  TemplateField,
} from '../src/index.js';
import { ctx, testVault } from './helpers.js';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('regex_replace', () => {
  it('applies Python-style patterns and back-references, optionally by key', () => {
    const t = new RegexReplace({
      rules: [
        { pattern: '(\\w+)@corp\\.com', replace: '\\1@REDACTED', keys: ['owner*'] },
        { pattern: '(?P<env>prod|dev)-', replace: '\\g<env>_', flags: 'i' },
      ],
    });
    const c = ctx();
    expect(t.apply({ owner: 'bob@corp.com', contact: 'bob@corp.com', name: 'PROD-web' }, c)).toEqual({
      owner: 'bob@REDACTED',
      contact: 'bob@corp.com',
      name: 'PROD_web',
    });
    expect(c.report.regex_replaced).toBe(2);
  });

  it('limits replacements with count and skips keyless strings when keys are set', () => {
    const t = new RegexReplace({ rules: [{ pattern: 'a', replacement: 'b', count: 1 }] });
    expect(t.apply('aaa', ctx())).toBe('baa');
    const k = new RegexReplace({ rules: [{ pattern: 'a', replace: 'b', keys: ['x'] }] });
    expect(k.apply(['a', { x: 'a', y: 'a' }], ctx())).toEqual(['a', { x: 'b', y: 'a' }]);
    expect(() => new RegexReplace({ rules: [{ pattern: '(' }] })).toThrow(
      /Bad options for transform 'regex_replace'/,
    );
  });
});

describe('rename_keys and template', () => {
  it('renames keys at every depth', () => {
    const c = ctx();
    expect(
      new KeyRename({ renames: { account_id: 'account' } }).apply({ a: [{ account_id: 1 }] }, c),
    ).toEqual({
      a: [{ account: 1 }],
    });
    expect(c.report.keys_renamed).toBe(1);
  });

  it('adds a field to every dict that has all the named fields', () => {
    const c = ctx();
    const t = new TemplateField({ templates: [{ target: 'label', template: '{name} in {region}' }] });
    expect(t.apply([{ name: 'web', region: 'us-east-1' }, { name: 'only' }], c)).toEqual([
      { name: 'web', region: 'us-east-1', label: 'web in us-east-1' },
      { name: 'only' },
    ]);
    expect(c.report.templated).toBe(1);
    expect(t.apply({ name: 'a', region: 'b', label: 'keep' }, ctx())).toEqual({
      name: 'a',
      region: 'b',
      label: 'keep',
    });
    const o = new TemplateField({
      templates: [{ target: 'label', template: '{{{name}}}', overwrite: true }],
    });
    expect(o.apply({ name: 'a', label: 'x' }, ctx())).toEqual({ name: 'a', label: '{a}' });
  });
});

describe('alias and substitute', () => {
  it('aliases whole values, bounded substrings and dict keys; reverses them', () => {
    const a = new AliasMap({ aliases: { '111111111111': 'prod' } });
    const c = ctx();
    expect(
      a.apply(
        {
          account_id: '111111111111',
          arn: 'arn:aws:iam::111111111111:role/x',
          other: '1111111111112',
          by_account: { '111111111111': 2 },
        },
        c,
      ),
    ).toEqual({
      account_id: 'prod',
      arn: 'arn:aws:iam::prod:role/x',
      other: '1111111111112',
      by_account: { prod: 2 },
    });
    expect(c.report.aliased).toBe(3);
    expect(a.reverse('arn:aws:iam::prod:role/x')).toEqual(['arn:aws:iam::111111111111:role/x', 1]);
  });

  it('honours substring and case_sensitive', () => {
    const exact = new AliasMap({ aliases: { Web: 'front' }, substring: false, case_sensitive: false });
    expect(exact.apply(['web', 'web tier'], ctx())).toEqual(['front', 'web tier']);
  });

  it('labels the caller’s pseudonym of an aliased value', () => {
    const vault = testVault();
    const pseudo = vault.pseudonymize('111111111111', 'aws_account_id');
    const a = new AliasMap({ aliases: { aws_account_id: { '111111111111': 'prod' } } }, { vault });
    expect(a.apply(`acct ${pseudo}`, ctx())).toBe('acct prod');
    const plain = new AliasMap(
      { aliases: { aws_account_id: { '111111111111': 'prod' } }, pseudonym_aware: false },
      { vault },
    );
    expect(plain.apply(pseudo, ctx())).toBe(pseudo);
  });

  it('reads alias files (JSON and a YAML subset), merged before the inline table', () => {
    const a = new AliasMap({
      files: [join(fixtures, 'accounts.yaml'), join(fixtures, 'accounts.json')],
      aliases: { '222222222222': 'shared' },
    });
    expect(a.apply(['111111111111', '222222222222', '999999999999'], ctx())).toEqual([
      'prod',
      'shared',
      'vendor-co',
    ]);
    expect(() => new AliasMap({ files: [join(fixtures, 'missing.yaml')] })).toThrow(
      /Bad options for transform 'alias'/,
    );
  });

  it('substitute runs alias, regex, rename and templates in order', () => {
    const s = new Substitution({
      aliases: { '111111111111': 'prod' },
      regex: [{ pattern: 'prod', replace: 'PROD' }],
      rename: { account_id: 'account' },
      templates: [{ target: 'label', template: 'acct {account}' }],
    });
    const c = ctx();
    expect(s.apply({ account_id: '111111111111' }, c)).toEqual({ account: 'PROD', label: 'acct PROD' });
    expect(c.report).toMatchObject({ aliased: 1, regex_replaced: 1, keys_renamed: 1, templated: 1 });
    expect(s.aliasMap.reverse('prod')).toEqual(['111111111111', 1]);
  });

  it('refuses unknown options', () => {
    expect(() => buildTransform({ type: 'substitute', options: { alias: {} } })).toThrow(
      "Bad options for transform 'substitute': unknown option 'alias'",
    );
  });
});
