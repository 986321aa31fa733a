/** Access decisions (section 7), globs (6.7) and rule matching (6.4). */
import {
  type Capability,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  Principal,
  type Sensitivity,
} from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { GlobList } from '../src/decide/glob.js';
import { catalogRegistry } from './fixtures/catalog.js';
import { as, load, local } from './helpers.js';

const tool = (
  name: string,
  category = 'general',
  sensitivity: Sensitivity = 'confidential',
  capabilities: Capability[] = ['read_state'],
  tags: string[] = [],
) => defineTool({ name, category, sensitivity, capabilities, tags, handler: () => null });

describe('globs', () => {
  it('match whole names, with * crossing / and :, ? and sets', () => {
    const g = new GlobList(['cloudg://assets/*', 'get_?', 'x[abc]', 'y[!abc]']);
    expect(g.matches('cloudg://assets/arn:aws:s3:::b/c')).toBe(true);
    expect(g.matches('get_a')).toBe(true);
    expect(g.matches('get_ab')).toBe(false);
    expect(g.matches('xb')).toBe(true);
    expect(g.matches('yb')).toBe(false);
    expect(g.matches('yz')).toBe(true);
    expect(g.matches('Get_a')).toBe(false);
    expect(new GlobList(['a.b']).matches('axb')).toBe(false);
  });

  it('treat ! as negation, and a list of negations alone matches nothing', () => {
    const g = new GlobList(['*', '!get_secret*']);
    expect(g.matches('get_asset')).toBe(true);
    expect(g.matches('get_secret_x')).toBe(false);
    expect(new GlobList(['!get_secret*']).matches('anything')).toBe(false);
  });
});

describe('decision reasons (section 7.1)', () => {
  const lists = load({
    name: 'lists',
    allow_tools: ['find_*', 'get_*'],
    deny_tools: ['get_secret*'],
    allow_categories: ['inventory'],
    max_sensitivity: 'confidential',
  });

  it.each([
    [tool('get_secret_x', 'inventory'), "tool denied by policy 'lists'"],
    [tool('find_live', 'live'), "category 'live' not allowed by policy 'lists'"],
    [tool('list_x', 'inventory'), "tool not in the allow list of policy 'lists'"],
    [
      tool('get_raw', 'inventory', 'restricted'),
      "sensitivity 'restricted' exceeds the allowed 'confidential'",
    ],
  ])('%s', (spec, reason) => {
    expect(lists.decide(spec, local)).toEqual({ allowed: false, reason });
  });

  it('allows what passes every list', () => {
    expect(lists.decide(tool('get_asset', 'inventory'), local)).toEqual({ allowed: true, reason: '' });
  });

  it('names the rule of an explicit denial, and the policy of a capability denial', () => {
    const registry = catalogRegistry();
    const strict = load('strict');
    expect(strict.decide(registry.tools.get('reveal_token')!, local).reason).toBe(
      "capability 'reveal' denied by rule 'never-reveal'",
    );
    const visible = load({ extends: 'strict', name: 'strict-visible', hide_denied: false });
    expect(visible.decide(registry.tools.get('map_inventory')!, local).reason).toBe(
      "capability 'cloud_access' is denied by policy 'strict-visible'",
    );
  });

  it('lets explicit rule denials win over every grant', () => {
    const policy = load({
      roles: { ops: { allow_tools: ['*'], allow_capabilities: ['exec'] } },
      rules: [{ name: 'no-scanners', match: { roles: ['ops'] }, deny_tools: ['run_*'] }],
    });
    expect(policy.decide(tool('run_scanners', 'live', 'confidential', ['exec']), as('ops')).reason).toBe(
      "tool denied by rule 'no-scanners'",
    );
    const categories = load({ roles: { analyst: { deny_categories: ['live'] } } });
    expect(categories.decide(tool('rate_limit_status', 'live'), as('analyst')).reason).toBe(
      "category 'live' denied by rule 'role:analyst'",
    );
  });

  it('grants skip the policy lists but not capability denials or ceilings', () => {
    const policy = load({
      allow_tools: [],
      deny_capabilities: ['exec'],
      max_sensitivity: 'internal',
      roles: { ops: { allow_tools: ['run_*', 'secret'] } },
    });
    expect(policy.decide(tool('run_a', 'x', 'internal'), as('ops')).allowed).toBe(true);
    expect(policy.decide(tool('run_a', 'x', 'internal'), local).reason).toBe(
      "tool not in the allow list of policy 'custom'",
    );
    expect(policy.decide(tool('run_b', 'x', 'internal', ['exec']), as('ops')).reason).toBe(
      "capability 'exec' is denied by policy 'custom'",
    );
    expect(policy.decide(tool('secret', 'x', 'restricted'), as('ops')).reason).toBe(
      "sensitivity 'restricted' exceeds the allowed 'internal'",
    );
  });

  it('takes the highest ceiling among matching rules, which may raise the policy ceiling', () => {
    const policy = load({
      max_sensitivity: 'internal',
      roles: { a: { max_sensitivity: 'confidential' }, b: { max_sensitivity: 'restricted' } },
    });
    const restricted = tool('r', 'x', 'restricted');
    expect(policy.decide(restricted, new Principal({ roles: ['a', 'b'] })).allowed).toBe(true);
    expect(policy.decide(restricted, as('a')).allowed).toBe(false);
    expect(policy.decide(tool('c'), as('a')).allowed).toBe(true);
    expect(policy.decide(tool('c'), local).allowed).toBe(false);
  });

  it('subtracts a policy-level allow_capabilities from the inherited deny set', () => {
    const policy = load({ extends: 'read_only', allow_capabilities: ['write_fs'] });
    expect(policy.decide(tool('export_report', 'export', 'confidential', ['write_fs']), local).allowed).toBe(
      true,
    );
  });

  it('uses the resource lists for resources and templates, and the prompt lists for prompts', () => {
    const policy = load({
      deny_resources: ['cloudg://assets/{+ref}', 'cloudg://secret'],
      deny_prompts: ['x*'],
    });
    const template = defineResourceTemplate({
      name: 't',
      uriTemplate: 'cloudg://assets/{+ref}',
      handler: () => null,
    });
    const resource = defineResource({ name: 'r', uri: 'cloudg://secret', handler: () => null });
    const prompt = definePrompt({ name: 'xray', handler: () => 'hi' });
    expect(policy.decide(template, local).reason).toBe("resource denied by policy 'custom'");
    expect(policy.decide(resource, local).reason).toBe("resource denied by policy 'custom'");
    expect(policy.decide(prompt, local).reason).toBe("prompt denied by policy 'custom'");
    expect(policy.decide(tool('xray'), local).allowed).toBe(true);
  });
});

describe('rule matching (section 6.4)', () => {
  const deny = (match: Record<string, unknown>) => load({ rules: [{ name: 'r', match, deny_tools: ['*'] }] });
  const denied = (match: Record<string, unknown>, spec = tool('t'), principal: Principal = local) =>
    !deny(match).decide(spec, principal).allowed;

  it('roles: any of them, or * for everyone', () => {
    expect(denied({ roles: ['local'] })).toBe(true);
    expect(denied({ roles: ['admin', 'nobody'] })).toBe(false);
    expect(denied({ roles: ['*'] }, tool('t'), Principal.anonymous())).toBe(true);
  });

  it('principals: globs on the id', () => {
    expect(denied({ principals: ['lo*'] })).toBe(true);
    expect(denied({ principals: ['ann'] })).toBe(false);
    const policy = deny({ principals: ['ann'] });
    expect(policy.decide(tool('t'), new Principal({ id: 'ann' })).allowed).toBe(false);
    expect(policy.decide(tool('t'), new Principal({ id: 'bob' })).allowed).toBe(true);
  });

  it('names, categories, tags, kinds, sensitivity and capabilities', () => {
    expect(denied({ names: ['t*', '!tx'] }, tool('ta'))).toBe(true);
    expect(denied({ names: ['t*', '!tx'] }, tool('tx'))).toBe(false);
    expect(denied({ categories: ['inv*'] }, tool('t', 'inventory'))).toBe(true);
    expect(
      denied({ tags: ['start-here'] }, tool('t', 'x', 'confidential', ['read_state'], ['start-here'])),
    ).toBe(true);
    expect(denied({ tags: ['start-here'] }, tool('t'))).toBe(false);
    expect(denied({ kinds: ['prompt'] }, tool('t'))).toBe(false);
    expect(denied({ sensitivity: ['public'] }, tool('t', 'x', 'public'))).toBe(true);
    expect(denied({ capabilities: ['exec'] }, tool('t', 'x', 'confidential', ['exec']))).toBe(true);
    expect(denied({ capabilities: ['exec'] }, tool('t'))).toBe(false);
  });

  it('kind resource also matches templates', () => {
    const policy = load({ rules: [{ match: { kinds: ['resource'] }, deny_resources: ['*'] }] });
    const template = defineResourceTemplate({
      name: 't',
      uriTemplate: 'cloudg://x/{id}',
      handler: () => null,
    });
    expect(policy.decide(template, local).reason).toBe("resource denied by rule 'rule[0]'");
  });

  it('caches per role set, and per id when a rule looks at ids', () => {
    const spec = tool('t');
    const byRole = load({ roles: { analyst: { deny_tools: ['t'] } } });
    expect(byRole.decide(spec, as('analyst', 'a1')).allowed).toBe(false);
    expect(byRole.decide(spec, as('analyst', 'a2')).allowed).toBe(false);
    expect(byRole.decide(spec, as('lead')).allowed).toBe(true);
    const byId = load({ rules: [{ match: { principals: ['a1'] }, deny_tools: ['t'] }] });
    expect(byId.decide(spec, as('analyst', 'a1')).allowed).toBe(false);
    expect(byId.decide(spec, as('analyst', 'a2')).allowed).toBe(true);
  });
});
