/**
 * `reveal_token`: exact pseudonyms with their entity type, texts and aliases with a count of
 * replacements, and an audit warning that never carries the token or the value.
 */
import { describe, expect, it } from 'vitest';
import { load, local } from './helpers.js';
import { ASSET, ann, lee, privacyLayer, root } from './introspection.fixtures.js';

describe('reveal_token', () => {
  it('under open there is no pseudonym to reverse', async () => {
    const { call } = privacyLayer('open');
    expect(await call('reveal_token', { token: 'arn:aws:iam::1:role/x' })).toEqual({
      pseudonym: 'arn:aws:iam::1:role/x',
      found: false,
      value: null,
      replaced: 0,
    });
  });

  it('reverses a pseudonym an output pipeline issued, with its entity type', async () => {
    // strict's transforms, with reveal granted to admins (strict itself grants it to nobody).
    const { call } = privacyLayer({
      name: 'pseudonymising',
      deny_capabilities: ['reveal'],
      roles: { admin: { allow_capabilities: ['reveal'] } },
      transforms: load('strict').toDocument().transforms,
    });
    const seen = await call('get_asset');
    expect(seen.name).toMatch(/^res-[0-9a-f]{10}$/);
    expect(await call('reveal_token', { token: seen.name }, root)).toEqual({
      pseudonym: seen.name,
      found: true,
      value: 'web-1',
      entity_type: 'resource_name',
    });
    expect(await call('reveal_token', { token: seen.owner }, root)).toMatchObject({
      found: true,
      value: 'alice@example.com',
    });
    const text = `check ${seen.name} owned by ${seen.owner}`;
    expect(await call('reveal_token', { token: text }, root)).toEqual({
      pseudonym: text,
      found: true,
      value: 'check web-1 owned by alice@example.com',
      replaced: 2,
    });
  });

  it('soc-analyst: a lead reverses the account alias and the pseudonym inside the ARN', async () => {
    const { call } = privacyLayer('soc-analyst');
    const seen = await call('get_asset', {}, ann);
    expect(seen.account_id).toBe('prod-payments');
    expect(seen.arn).toMatch(/^arn:aws:ec2:us-east-1:prod-payments:instance\/res-[0-9a-f]{10}$/);
    expect(await call('reveal_token', { token: seen.arn }, lee)).toEqual({
      pseudonym: seen.arn,
      found: true,
      value: ASSET.arn,
      replaced: 2,
    });
    expect(await call('reveal_token', { token: 'prod-payments' }, lee)).toEqual({
      pseudonym: 'prod-payments',
      found: true,
      value: '111111111111',
      replaced: 1,
    });
    expect(await call('reveal_token', { token: seen.name }, lee)).toEqual({
      pseudonym: seen.name,
      found: true,
      value: 'web-1',
      entity_type: 'resource_name',
    });
  });

  it('only reverses within the caller namespace under a principal-scoped vault', async () => {
    const policy = load({ name: 'scoped', vault: { scope: 'principal' } });
    const token = policy.vault.pseudonymize('web-1', 'resource_name', {
      namespace: policy.vault.namespaceFor('ann'),
    });
    expect(policy.introspection.reveal(token, ann)).toMatchObject({ found: true, value: 'web-1' });
    expect(policy.introspection.reveal(token, lee)).toEqual({
      pseudonym: token,
      found: false,
      value: null,
      replaced: 0,
    });
  });

  it('logs a warning with a keyed hash of the token, never the token or the value', async () => {
    const { call, lines } = privacyLayer('soc-analyst', { capture: true });
    const seen = await call('get_asset', {}, ann);
    lines.length = 0;
    await call('reveal_token', { token: seen.name }, lee);
    await call('reveal_token', { token: seen.arn }, lee);
    await call('reveal_token', { token: 'nothing here' }, lee);
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^REVEAL principal=lee /),
      expect.stringMatching(/^reveal_token principal=lee entity=resource_name token_hash=[0-9a-f]{12}$/),
      expect.stringMatching(/^REVEAL principal=lee /),
      expect.stringMatching(/^reveal_token principal=lee reversed=2 token_hash=[0-9a-f]{12}$/),
      expect.stringMatching(/^REVEAL principal=lee /),
      expect.stringMatching(/^reveal_token principal=lee embedded_tokens=0 token_hash=[0-9a-f]{12}$/),
    ]);
    // The result line's hash is the one the decision log gives the token argument.
    expect(warnings[1]?.token_hash).toBe(
      (warnings[0]?.arguments as Record<string, string> | undefined)?.token,
    );
    const logged = JSON.stringify(lines);
    for (const secret of [seen.name, 'web-1', '111111111111', 'i-0web1'])
      expect(logged).not.toContain(secret);
  });

  it('is reached through the policy without the layer too', () => {
    expect(load('open').introspection.reveal('x', local)).toEqual({
      pseudonym: 'x',
      found: false,
      value: null,
      replaced: 0,
    });
  });
});
