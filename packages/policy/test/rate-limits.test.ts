/** Token buckets per scope, kinds, burst and all-or-nothing charging (section 9). */
import {
  type AnySpec,
  type CallKind,
  defineResourceTemplate,
  defineTool,
  Principal,
  RateLimitedError,
} from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import type { PolicyDocument } from '../src/index.js';
import { fakeClock, load } from './helpers.js';

const tool = (name: string) => defineTool({ name, handler: () => null });
const alice = new Principal({ id: 'alice' });
const bob = new Principal({ id: 'bob' });

function harness(doc: PolicyDocument) {
  const clock = fakeClock();
  const policy = load(doc, { clock: clock.now });
  const call = (spec: AnySpec, who: Principal = alice, kind: CallKind = 'tool') => {
    try {
      policy.checkCall(spec, who, { kind, name: spec.name, arguments: {} });
      return 'ok';
    } catch (error) {
      if (error instanceof RateLimitedError) return 'limited';
      throw error;
    }
  };
  return { policy, clock, call };
}

describe('rate limits', () => {
  it('refills continuously at rate / period and starts full at burst', () => {
    const { call, clock } = harness({ rate_limits: [{ rate: 60, per: 'minute', burst: 3 }] });
    const t = tool('t');
    expect([call(t), call(t), call(t), call(t)]).toEqual(['ok', 'ok', 'ok', 'limited']);
    clock.advance(1);
    expect([call(t), call(t)]).toEqual(['ok', 'limited']);
  });

  it('defaults burst to ceil(rate), at least 1', () => {
    const { call } = harness({ rate_limits: [{ rate: 2.5, per: 'hour' }] });
    expect([call(tool('t')), call(tool('t')), call(tool('t')), call(tool('t'))]).toEqual([
      'ok',
      'ok',
      'ok',
      'limited',
    ]);
    const small = harness({ rate_limits: [{ rate: 0.5, per: 'second' }] });
    expect([small.call(tool('t')), small.call(tool('t'))]).toEqual(['ok', 'limited']);
  });

  it.each([
    ['principal', ['ok', 'limited', 'ok', 'limited']],
    ['tool', ['ok', 'ok', 'limited', 'limited']],
    ['principal_tool', ['ok', 'ok', 'ok', 'ok']],
    ['global', ['ok', 'limited', 'limited', 'limited']],
  ] as const)('scope %s shares buckets accordingly', (scope, expected) => {
    const { call } = harness({ rate_limits: [{ rate: 1, per: 'hour', scope }] });
    // alice:a, alice:b, bob:a, bob:b
    expect([
      call(tool('a'), alice),
      call(tool('b'), alice),
      call(tool('a'), bob),
      call(tool('b'), bob),
    ]).toEqual(expected);
  });

  it('covers only the tools its globs match', () => {
    const { call } = harness({
      rate_limits: [{ tools: ['get_*', '!get_free'], rate: 1, per: 'hour', scope: 'principal' }],
    });
    expect([
      call(tool('get_a')),
      call(tool('get_b')),
      call(tool('get_free')),
      call(tool('get_free')),
    ]).toEqual(['ok', 'limited', 'ok', 'ok']);
  });

  it('a call refused by one bucket costs nothing in the others', () => {
    const { call } = harness({
      rate_limits: [
        { rate: 5, per: 'hour', scope: 'principal' },
        { tools: ['hot'], rate: 1, per: 'hour' },
      ],
    });
    expect([call(tool('hot')), call(tool('hot')), call(tool('hot')), call(tool('hot'))]).toEqual([
      'ok',
      'limited',
      'limited',
      'limited',
    ]);
    expect([1, 2, 3, 4, 5].map(() => call(tool('other')))).toEqual(['ok', 'ok', 'ok', 'ok', 'limited']);
  });

  it('counts completions as calls: kinds [completion] throttles them apart, no kinds covers all', () => {
    const template = defineResourceTemplate({
      name: 'asset',
      uriTemplate: 'cloudg://assets/{+ref}',
      handler: () => null,
    });
    const only = harness({ rate_limits: [{ rate: 1, per: 'minute', kinds: ['completion'] }] });
    expect([only.call(template, alice, 'resource'), only.call(template, alice, 'resource')]).toEqual([
      'ok',
      'ok',
    ]);
    expect(only.call(template, alice, 'completion')).toBe('ok');
    try {
      only.policy.checkCall(template, alice, { kind: 'completion', name: 'asset', arguments: {} });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        "Rate limit exceeded for completion 'cloudg://assets/{+ref}' (1/minute); retry in 60.0s",
      );
    }
    const tools = harness({ rate_limits: [{ rate: 1, per: 'minute', kinds: ['tool'] }] });
    expect([tools.call(template, alice, 'completion'), tools.call(template, alice, 'completion')]).toEqual([
      'ok',
      'ok',
    ]);
    const resources = harness({ rate_limits: [{ rate: 1, per: 'minute', kinds: ['resource'] }] });
    expect([
      resources.call(template, alice, 'resource'),
      resources.call(template, alice, 'resource'),
    ]).toEqual(['ok', 'limited']);
    const all = harness({ rate_limits: [{ rate: 1, per: 'minute' }] });
    expect([all.call(template, alice, 'completion'), all.call(template, alice, 'completion')]).toEqual([
      'ok',
      'limited',
    ]);
  });

  it('adds the limits of matching roles, and resetRateLimits empties every bucket', () => {
    const { call, policy } = harness({
      roles: {
        lead: { rate_limits: [{ tools: ['reveal_token'], rate: 1, per: 'hour', scope: 'principal' }] },
      },
    });
    const lead = new Principal({ id: 'lee', roles: ['lead'] });
    expect([call(tool('reveal_token'), lead), call(tool('reveal_token'), lead)]).toEqual(['ok', 'limited']);
    expect([call(tool('reveal_token'), alice), call(tool('reveal_token'), alice)]).toEqual(['ok', 'ok']);
    policy.resetRateLimits();
    expect(call(tool('reveal_token'), lead)).toBe('ok');
  });

  it('checks access before limits, so denied calls cost nothing', () => {
    const { call, policy } = harness({
      hide_denied: false,
      deny_tools: ['no'],
      rate_limits: [{ rate: 1, per: 'hour', scope: 'principal' }],
    });
    expect(() => call(tool('no'))).toThrow("Access to tool 'no' denied: tool denied by policy 'custom'");
    expect(call(tool('yes'))).toBe('ok');
    expect(policy.counters).toMatchObject({ denied: 1, allowed: 1 });
  });
});
