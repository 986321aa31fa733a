/**
 * The policy behind a real core `Layer`: denials as -31001 error results, hidden tools as
 * unknown names, rate limits as -31029 with their data, and the decision log of every outcome.
 */
import {
  defineTool,
  Layer,
  MetaKey,
  NotFoundError,
  RateLimitedError,
  Registry,
  type ToolResult,
} from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { PolicyOptions, PolicySourceValue } from '../src/index.js';
import { catalogRegistry } from './fixtures/catalog.js';
import { as, fakeClock, load, local, silent } from './helpers.js';

function layerFor(source: PolicySourceValue, options: PolicyOptions = {}, registry = catalogRegistry()) {
  const policy = load(source, options);
  return { policy, layer: new Layer({ policy, registry, logger: silent }) };
}
const text = (result: ToolResult) => (result.content[0] as { text: string }).text;

describe('hide_denied', () => {
  it('false: the tool stays listed and a call returns a -31001 error result with the reason', async () => {
    const { layer, policy } = layerFor({
      extends: 'strict',
      name: 'strict-visible',
      hide_denied: false,
    });
    expect(layer.listTools(local)).toHaveLength(74);
    const result = await layer.callTool('map_inventory', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      "Access to tool 'map_inventory' denied: capability 'cloud_access' is denied by policy 'strict-visible'",
    );
    expect(result.meta[MetaKey.errorCode]).toBe(-31001);
    expect(result.meta[MetaKey.errorData]).toEqual({
      policy: 'strict-visible',
      reason: "capability 'cloud_access' is denied by policy 'strict-visible'",
    });
    expect(policy.auditLog).toMatchObject([
      {
        decision: 'denied',
        kind: 'tool',
        name: 'map_inventory',
        principal: 'local',
        roles: ['default', 'local'],
        arguments: {},
        reason: "capability 'cloud_access' is denied by policy 'strict-visible'",
      },
    ]);
  });

  it('true: a denied tool answers like an unknown one and is recorded as not_found', async () => {
    const { layer, policy } = layerFor({ extends: 'strict' });
    await expect(layer.callTool('reveal_token', { token: 'x' })).rejects.toThrow(NotFoundError);
    await expect(layer.callTool('reveal_token', {})).rejects.toThrow('Unknown tool: reveal_token');
    await expect(layer.callTool('no_such_tool', {})).rejects.toThrow(NotFoundError);
    expect(policy.auditLog.map((e) => [e.decision, e.name, e.reason])).toEqual([
      ['not_found', 'reveal_token', 'unknown or hidden by policy'],
      ['not_found', 'reveal_token', 'unknown or hidden by policy'],
      ['not_found', 'no_such_tool', 'unknown or hidden by policy'],
    ]);
    expect(policy.counters.hidden).toBe(3);
  });
});

describe('rate limits through the layer', () => {
  const boom = () => {
    const registry = new Registry();
    registry.add(defineTool({ name: 'boom', handler: () => ({ ok: true }) }));
    registry.add(defineTool({ name: 'calm', handler: () => ({ ok: true }) }));
    return registry;
  };

  it('answers the second call of a one-per-minute tool with -31029 and its data', async () => {
    const clock = fakeClock();
    const { layer, policy } = layerFor(
      { name: 'limited', rate_limits: [{ tools: ['boom'], rate: 1, per: 'minute' }] },
      { clock: clock.now },
      boom(),
    );
    const first = await layer.callTool('boom', {});
    expect(first.isError).toBe(false);
    const second = await layer.callTool('boom', {});
    expect(second.isError).toBe(true);
    expect(text(second)).toBe("Rate limit exceeded for tool 'boom' (1/minute); retry in 60.0s");
    expect(second.meta[MetaKey.errorCode]).toBe(-31029);
    expect(second.meta[MetaKey.errorData]).toEqual({
      retry_after: 60,
      limit: '1/minute',
      scope: 'principal_tool',
    });
    expect((await layer.callTool('calm', {})).isError).toBe(false);
    clock.advance(30);
    const third = await layer.callTool('boom', {});
    expect(text(third)).toBe("Rate limit exceeded for tool 'boom' (1/minute); retry in 30.0s");
    clock.advance(30);
    expect((await layer.callTool('boom', {})).isError).toBe(false);
    expect(policy.auditLog.map((e) => e.decision)).toEqual(['rate_limited', 'rate_limited']);
    expect(policy.counters).toMatchObject({ rate_limited: 2, allowed: 3 });
  });

  it('reports the reference example: the third get_asset within a minute at 2/minute', () => {
    const clock = fakeClock();
    const policy = load(
      { rate_limits: [{ tools: ['get_asset'], rate: 2, per: 'minute' }] },
      { clock: clock.now },
    );
    const spec = catalogRegistry().tools.get('get_asset')!;
    const call = { kind: 'tool' as const, name: 'get_asset', arguments: {} };
    policy.checkCall(spec, local, call);
    policy.checkCall(spec, local, call);
    clock.advance(0.01);
    try {
      policy.checkCall(spec, local, call);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as RateLimitedError).code).toBe(-31029);
      expect((error as RateLimitedError).message).toBe(
        "Rate limit exceeded for tool 'get_asset' (2/minute); retry in 30.0s",
      );
      expect((error as RateLimitedError).data).toEqual({
        retry_after: 29.99,
        limit: '2/minute',
        scope: 'principal_tool',
      });
    }
  });
});

describe('decision log', () => {
  it('records the three outcomes of section 15.1 in order', async () => {
    const registry = catalogRegistry();
    registry.add(defineTool({ name: 'find_assets', input: { query: z.string() }, handler: () => [] }), {
      replace: true,
    });
    const { layer, policy } = layerFor(
      { extends: 'strict', name: 'strict-audit', audit: true, hide_denied: false },
      {},
      registry,
    );
    await layer.callTool('get_asset', { ref: 'web-1', max_relations: 0 });
    await layer.callTool('map_inventory', {});
    await layer.callTool('find_assets', { query: 'password=hunter2-prod' });
    expect(
      policy.auditLog.map((e) => [e.decision, e.name, Object.keys(e.arguments), e.reason ?? null]),
    ).toEqual([
      ['allowed', 'get_asset', ['max_relations', 'ref'], null],
      ['denied', 'map_inventory', [], "capability 'cloud_access' is denied by policy 'strict-audit'"],
      [
        'rejected',
        'find_assets',
        ['query'],
        'Arguments appear to contain secrets (password); refusing to process them. Pass resource references, never credentials.',
      ],
    ]);
    for (const entry of policy.auditLog) {
      expect(entry).toMatchObject({ kind: 'tool', principal: 'local', roles: ['default', 'local'] });
    }
  });

  it('with audit: true records allowed calls with hashed arguments, never values', async () => {
    const { layer, policy } = layerFor({
      extends: 'strict',
      name: 'strict-audit',
      audit: true,
    });
    await layer.callTool('get_asset', { ref: 'web-1', max_relations: 5 }, { principal: local });
    const [entry] = policy.auditLog;
    expect(entry).toMatchObject({ decision: 'allowed', kind: 'tool', name: 'get_asset', principal: 'local' });
    expect(Object.keys(entry?.arguments ?? {})).toEqual(['max_relations', 'ref']);
    expect(entry?.arguments.ref).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(entry)).not.toContain('web-1');
    expect(typeof entry?.ts).toBe('number');
  });

  it('without audit keeps no allowed entries, except for tools that reveal', async () => {
    const { layer, policy } = layerFor({ extends: 'standard' });
    await layer.callTool('get_asset', { ref: 'web-1' });
    expect(policy.auditLog).toEqual([]);
    await layer.callTool('reveal_token', { token: 'res-1' }, { principal: as('admin', 'root') });
    expect(policy.auditLog).toMatchObject([{ decision: 'allowed', name: 'reveal_token', principal: 'root' }]);
    expect(policy.counters.reveal).toBe(1);
  });

  it('audit_size bounds the ring, and 0 keeps nothing', async () => {
    const small = layerFor({ audit: true, audit_size: 2 });
    for (const name of ['get_asset', 'find_assets', 'list_findings']) await small.layer.callTool(name, {});
    expect(small.policy.auditLog.map((e) => e.name)).toEqual(['find_assets', 'list_findings']);
    const none = layerFor({ audit: true, audit_size: 0, hide_denied: false, deny_tools: ['get_asset'] });
    await none.layer.callTool('get_asset', {});
    await none.layer.callTool('find_assets', {});
    expect(none.policy.auditLog).toEqual([]);
    expect(none.policy.counters).toMatchObject({ denied: 1, allowed: 1 });
  });

  it('changes the allowed entry to rejected when the secret guard refuses the arguments', async () => {
    const registry = new Registry();
    registry.add(defineTool({ name: 'find_assets', input: { query: z.string() }, handler: () => [] }));
    const { layer, policy } = layerFor(
      { extends: 'strict', name: 'strict-audit', audit: true },
      {},
      registry,
    );
    const result = await layer.callTool('find_assets', { query: 'password=hunter2-prod' });
    expect(result.isError).toBe(true);
    expect(result.meta[MetaKey.errorCode]).toBe(-32602);
    expect(text(result)).toBe(
      'Arguments appear to contain secrets (password); refusing to process them. Pass resource references, never credentials.',
    );
    expect(policy.auditLog).toHaveLength(1);
    expect(policy.auditLog[0]).toMatchObject({
      decision: 'rejected',
      kind: 'tool',
      name: 'find_assets',
      reason:
        'Arguments appear to contain secrets (password); refusing to process them. Pass resource references, never credentials.',
    });
    expect(policy.auditLog[0]?.arguments.query).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(policy.auditLog)).not.toContain('hunter2');
    expect(policy.counters).toMatchObject({ rejected: 1, allowed: 1 });
  });

  it('finds the refused call among concurrent ones', async () => {
    const registry = catalogRegistry();
    registry.add(defineTool({ name: 'find_assets', input: { query: z.string() }, handler: () => [] }), {
      replace: true,
    });
    const { layer, policy } = layerFor({ extends: 'standard', audit: true }, {}, registry);
    await Promise.all([
      layer.callTool('find_assets', { query: 'password=hunter2-prod' }),
      layer.callTool('get_asset', {}),
    ]);
    expect(policy.auditLog.map((e) => [e.decision, e.name])).toEqual([
      ['rejected', 'find_assets'],
      ['allowed', 'get_asset'],
    ]);
  });

  it('adds a rejected entry when allowed calls are not kept', async () => {
    const registry = new Registry();
    registry.add(defineTool({ name: 'find_assets', input: { query: z.string() }, handler: () => [] }));
    const { layer, policy } = layerFor('standard', {}, registry);
    await layer.callTool('find_assets', { query: 'password=hunter2-prod' });
    expect(policy.auditLog.map((e) => e.decision)).toEqual(['rejected']);
  });
});
