/** `privacy_status` (section 14): the policy as it applies to the caller. */
import { Principal } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { load, local } from './helpers.js';
import { ann, lee, privacyLayer } from './introspection.fixtures.js';

describe('privacy_status', () => {
  it('under open: the documented example, counting the calls made so far', async () => {
    const { call } = privacyLayer('open');
    await call('get_asset');
    await call('get_asset');
    expect(await call('privacy_status')).toEqual({
      policy: 'open',
      description: 'No transforms, no restrictions. Trusted local experiments only.',
      loaded_from: 'profile:open',
      extends: [],
      principal: { id: 'local', roles: ['default', 'local'] },
      max_sensitivity: null,
      denied_capabilities: [],
      visible_tools: 6,
      output_pipeline: [],
      pseudonymisation: {
        active: false,
        vault_scope: 'global',
        vault_entries: 0,
        by_entity: {},
        key_source: 'random',
      },
      audit_enabled: false,
      // Two get_asset calls and the privacy_status call itself; zero counters are left out.
      counters: { allowed: 3 },
    });
  });

  it('passes on the visible tool count the caller gives', () => {
    const status = load('open').introspection.status(local, { visibleTools: 74 });
    expect(status.visible_tools).toBe(74);
  });

  it('under a strict-based policy: ceiling, denied capabilities and the redactor step', async () => {
    const { call } = privacyLayer({ extends: 'strict', name: 'strict-persist' });
    await call('get_asset');
    const status = await call('privacy_status');
    expect(status).toMatchObject({
      policy: 'strict-persist',
      loaded_from: 'dict',
      extends: ['standard', 'strict'],
      principal: { id: 'local', roles: ['default', 'local'] },
      max_sensitivity: 'confidential',
      denied_capabilities: ['cloud_access', 'exec', 'reveal', 'write_fs'],
      audit_enabled: false,
      counters: { allowed: 2 },
    });
    const pipeline = status.output_pipeline as Record<string, unknown>[];
    expect(pipeline.map((s) => s.type)).toEqual(['sanitize', 'redact', 'project', 'annotate']);
    expect(pipeline[0]).toEqual({ type: 'sanitize' });
    const redact = pipeline[1] as Record<string, unknown>;
    expect(redact).toMatchObject({
      type: 'redact',
      default: 'keep',
      min_confidence: 0,
      pseudonymize_allowed: true,
    });
    expect((redact.strategies as unknown[]).slice(0, 4)).toEqual([
      { applies_to: 'secret', strategy: 'redact', options: {} },
      { applies_to: 'private_key', strategy: 'drop', options: {} },
      { applies_to: 'credential', strategy: 'redact', options: {} },
      { applies_to: 'identifier', strategy: 'pseudonymize', options: {} },
    ]);
    expect((redact.active_detectors as string[]).slice(0, 3)).toEqual(['cloudg_uri', 'private_key', 'jwt']);
    expect((redact.key_rules as string[]).slice(0, 2)).toEqual(['sensitive_key', 'account_id_key']);
    // The get_asset call pseudonymised the name, the ARN (with its account and instance id) and
    // the e-mail (with its domain); the counts say which entities, never the values.
    expect(status.pseudonymisation).toEqual({
      active: true,
      vault_scope: 'global',
      vault_entries: 6,
      by_entity: { aws_account_id: 1, aws_arn: 1, email: 1, email_domain: 1, resource_name: 2 },
      key_source: 'random',
    });
    expect(JSON.stringify(status)).not.toContain('web-1');
  });

  it('lists strategy options and only the active key rules under standard', () => {
    const status = load('standard').introspection.status(local, { visibleTools: 0 });
    const redact = (status.output_pipeline as Record<string, unknown>[])[1] as Record<string, unknown>;
    expect(redact.strategies).toEqual([
      { applies_to: 'secret', strategy: 'redact', options: {} },
      { applies_to: 'private_key', strategy: 'drop', options: {} },
      { applies_to: 'credential', strategy: 'mask', options: { keep_first: 4, keep_last: 4 } },
    ]);
    expect(redact.key_rules).toEqual(['sensitive_key']);
    expect(status.pseudonymisation).toMatchObject({ active: false });
  });

  it('never shows the options of other steps, so alias tables stay hidden', () => {
    const policy = load({
      name: 'aliased',
      transforms: [
        { type: 'redact', strategies: { identifier: 'pseudonymize' } },
        { type: 'alias', id: 'accounts', aliases: { '111111111111': 'prod' } },
      ],
    });
    const status = policy.introspection.status(local, { visibleTools: 0 });
    expect((status.output_pipeline as unknown[])[1]).toEqual({ type: 'alias', id: 'accounts' });
    expect(JSON.stringify(status)).not.toContain('111111111111');
  });

  it('is per caller: soc-analyst analysts pseudonymise through their role, leads do not', () => {
    const policy = load('soc-analyst');
    const analyst = policy.introspection.status(ann, { visibleTools: 60 });
    const lead = policy.introspection.status(lee, { visibleTools: 70 });
    expect(analyst).toMatchObject({
      principal: { id: 'ann', roles: ['analyst'] },
      max_sensitivity: 'confidential',
      denied_capabilities: ['cloud_access', 'exec', 'reveal', 'write_fs'],
      pseudonymisation: { active: true },
      audit_enabled: true,
    });
    expect(lead).toMatchObject({
      principal: { id: 'lee', roles: ['lead'] },
      max_sensitivity: 'restricted',
      denied_capabilities: ['cloud_access', 'exec'],
      pseudonymisation: { active: false },
    });
  });

  it('counts every kind of decision it has seen', async () => {
    const { call, layer, policy } = privacyLayer({ extends: 'standard', name: 'counting' });
    await call('get_asset');
    await layer.callTool('no_such_tool', {}).catch(() => undefined);
    await call('reveal_token', { token: 'x' }, new Principal({ id: 'root', roles: ['admin'] }));
    expect(policy.introspection.status(local, { visibleTools: 0 }).counters).toEqual({
      allowed: 2,
      hidden: 1,
      reveal: 1,
    });
  });
});
