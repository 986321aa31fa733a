/** `privacy_audit_log` (section 15.1): who sees which decisions, the filter, `total` and `limit`. */
import { Principal } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { load, local } from './helpers.js';
import { ann, lee, privacyLayer, root } from './introspection.fixtures.js';

describe('privacy_audit_log', () => {
  it('under open: nothing recorded, own scope', async () => {
    const { call } = privacyLayer('open');
    expect(await call('privacy_audit_log', { limit: 3 })).toEqual({
      policy: 'open',
      audit_enabled: false,
      scope: 'own',
      total: 0,
      entries: [],
    });
  });

  it('a soc-analyst lead sees only their own entries, hashed arguments and all', async () => {
    const { call, layer } = privacyLayer('soc-analyst');
    await call('get_asset', {}, ann);
    await layer.callTool('reveal_token', { token: 'x' }, { principal: ann }).catch(() => undefined);
    await call('reveal_token', { token: 'res-3c1f1e6b50' }, lee);
    const log = await call('privacy_audit_log', { limit: 3 }, lee);
    expect(log).toMatchObject({ policy: 'soc-analyst', audit_enabled: true, scope: 'own', total: 2 });
    const entries = log.entries as Record<string, unknown>[];
    expect(entries.map((e) => [e.decision, e.name, e.principal, e.roles])).toEqual([
      ['allowed', 'reveal_token', 'lee', ['lead']],
      ['allowed', 'privacy_audit_log', 'lee', ['lead']],
    ]);
    expect(typeof entries[0]?.ts).toBe('number');
    expect((entries[1]?.arguments as Record<string, string> | undefined)?.limit).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(log)).not.toContain('res-3c1f1e6b50');
  });

  it('an admin sees every principal (scope all)', async () => {
    const { call, layer } = privacyLayer({ extends: 'standard', name: 'audited', audit: true });
    await call('get_asset', {}, ann);
    await layer.callTool('no_such_tool', {}, { principal: local }).catch(() => undefined);
    const log = await call('privacy_audit_log', {}, root);
    expect(log).toMatchObject({ policy: 'audited', audit_enabled: true, scope: 'all', total: 3 });
    expect((log.entries as Record<string, unknown>[]).map((e) => [e.decision, e.name, e.principal])).toEqual([
      ['allowed', 'get_asset', 'ann'],
      ['not_found', 'no_such_tool', 'local'],
      ['allowed', 'privacy_audit_log', 'root'],
    ]);
    const officer = new Principal({ id: 'po', roles: ['privacy-admin'] });
    expect(load('open').introspection.decisionLog(officer, { limit: 1 }).scope).toBe('all');
  });

  it('filters by decision, counts the total after the filter and returns the last `limit`', async () => {
    const { layer, policy } = privacyLayer({ name: 'hidden', deny_tools: ['get_asset'] });
    for (let i = 0; i < 4; i++) await layer.callTool('get_asset', {}).catch(() => undefined);
    await layer.callTool('get_asset', {}, { principal: ann }).catch(() => undefined);
    await layer.callTool('privacy_status', {});
    const log = policy.introspection.decisionLog(local, { limit: 2, decision: 'not_found' });
    expect(log.total).toBe(4);
    expect(log.entries).toHaveLength(2);
    expect((log.entries as Record<string, unknown>[]).every((e) => e.principal === 'local')).toBe(true);
    expect(policy.introspection.decisionLog(local, { limit: 50, decision: 'denied' })).toMatchObject({
      total: 0,
      entries: [],
    });
  });

  it('keeps the reason of entries that have one', async () => {
    const { layer, policy } = privacyLayer({ name: 'p', hide_denied: false, deny_tools: ['get_asset'] });
    await layer.callTool('get_asset', {});
    expect(policy.introspection.decisionLog(local, { limit: 1 }).entries).toMatchObject([
      { decision: 'denied', name: 'get_asset', reason: "tool denied by policy 'p'", arguments: {} },
    ]);
  });
});
