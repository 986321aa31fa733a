/** The effective settings of every built-in profile (section 4.1 of the privacy reference). */
import { defineTool } from '@cloudg/core';
import type { NormalizedSpec } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import { listProfiles } from '../src/index.js';
import { catalogRegistry } from './fixtures/catalog.js';
import { as, load, local, PROFILE_NAMES } from './helpers.js';

const registry = catalogRegistry();
const tool = (name: string) => {
  const spec = registry.tools.get(name);
  if (!spec) throw new Error(`no tool ${name}`);
  return spec;
};
const byType = (specs: NormalizedSpec[], type: string) => specs.find((s) => s.type === type);

describe('built-in profiles', () => {
  it('ship all seven as files of the package', () => {
    expect(listProfiles().sort()).toEqual([...PROFILE_NAMES].sort());
  });

  it.each([
    ['open', []],
    ['standard', []],
    ['strict', ['standard']],
    ['read_only', ['standard']],
    ['airgapped', ['standard']],
    ['audit', ['standard', 'read_only']],
    ['soc-analyst', ['standard']],
  ])('%s extends %j', (name, chain) => {
    const policy = load(name);
    expect(policy.extendsChain).toEqual(chain);
    expect(policy.describe().loaded_from).toBe(`profile:${name}`);
    expect(policy.name).toBe(name);
  });

  it.each([
    ['open', []],
    ['standard', ['reveal']],
    ['strict', ['cloud_access', 'exec', 'reveal', 'write_fs']],
    ['read_only', ['cloud_access', 'exec', 'reveal', 'write_fs']],
    ['airgapped', ['cloud_access', 'exec', 'reveal']],
    ['audit', ['cloud_access', 'exec', 'reveal', 'write_fs']],
    ['soc-analyst', ['cloud_access', 'exec', 'reveal', 'write_fs']],
  ])('%s denies capabilities %j', (name, denied) => {
    expect(load(name).describe().effective_denied_capabilities).toEqual(denied);
  });

  const revealers = ['local', 'admin', 'privacy-admin', 'lead', 'analyst'];
  it.each([
    ['open', ['local', 'admin', 'privacy-admin', 'lead', 'analyst']],
    ['standard', ['admin', 'privacy-admin']],
    ['strict', []],
    ['read_only', ['admin', 'privacy-admin']],
    ['airgapped', ['admin', 'privacy-admin']],
    ['audit', ['admin', 'privacy-admin']],
    ['soc-analyst', ['lead']],
  ])('%s lets %j reveal', (name, expected) => {
    const policy = load(name);
    const allowed = revealers.filter(
      (who) => policy.decide(tool('reveal_token'), who === 'local' ? local : as(who)).allowed,
    );
    expect(allowed).toEqual(expected);
  });

  it('explains why reveal stays closed under strict and soc-analyst', () => {
    expect(load('strict').decide(tool('reveal_token'), as('admin')).reason).toBe(
      "capability 'reveal' denied by rule 'never-reveal'",
    );
    expect(load('soc-analyst').decide(tool('reveal_token'), as('admin')).reason).toBe(
      "sensitivity 'restricted' exceeds the allowed 'confidential'",
    );
  });

  it.each([
    ['open', null, false, 1000],
    ['standard', null, false, 1000],
    ['strict', 'confidential', false, 1000],
    ['read_only', null, false, 1000],
    ['airgapped', null, false, 1000],
    ['audit', null, true, 10000],
    ['soc-analyst', 'confidential', true, 1000],
  ])(
    '%s: ceiling %s, audit %s with %i entries, hidden denials, honoured hints',
    (name, ceiling, audit, size) => {
      const d = load(name).describe();
      expect([d.max_sensitivity, d.audit, d.audit_size, d.hide_denied, d.honor_hints]).toEqual([
        ceiling,
        audit,
        size,
        true,
        true,
      ]);
    },
  );

  it("raises the soc-analyst lead's ceiling to restricted", () => {
    const policy = load('soc-analyst');
    expect(policy.maxSensitivityFor(as('lead'))).toBe('restricted');
    expect(policy.maxSensitivityFor(as('analyst'))).toBe('confidential');
  });

  const limits = (name: string) =>
    load(name).config.rate_limits.map(
      (l) => `${l.tools.join(',')} ${l.rate}/${l.per} burst=${l.burst} ${l.scope}`,
    );
  it.each([
    ['open', []],
    ['standard', ['reveal_token 30/minute burst=null principal']],
    ['strict', ['reveal_token 30/minute burst=null principal', '* 240/minute burst=120 principal']],
    ['read_only', ['reveal_token 30/minute burst=null principal']],
    ['airgapped', ['reveal_token 30/minute burst=null principal']],
    ['audit', ['reveal_token 30/minute burst=null principal']],
    ['soc-analyst', ['reveal_token 30/minute burst=null principal', '* 300/minute burst=100 principal']],
  ])('%s rate limits', (name, expected) => {
    expect(limits(name)).toEqual(expected);
  });

  it('gives the soc-analyst lead reveal_token 20/hour', () => {
    expect(load('soc-analyst').config.roles.lead?.rate_limits).toMatchObject([
      { tools: ['reveal_token'], rate: 20, per: 'hour', scope: 'principal' },
    ]);
  });

  describe('output and input pipelines for get_asset (local user)', () => {
    const plan = (name: string, principal = local) => load(name).transformPlan(tool('get_asset'), principal);

    it('open transforms nothing and accepts secrets in arguments', () => {
      expect(plan('open')).toEqual({ output: [], input: [] });
    });

    it.each(['standard', 'read_only', 'airgapped', 'audit', 'soc-analyst'])(
      '%s sanitises with a fence, redacts secrets, masks credentials 4 + 4, projects and annotates',
      (name) => {
        const { output, input } = plan(name);
        expect(output.map((s) => s.type).slice(0, 4)).toEqual(['sanitize', 'redact', 'project', 'annotate']);
        expect(byType(output, 'sanitize')?.options).toEqual({ on_suspicious: 'fence', max_free_text: 2000 });
        expect(byType(output, 'redact')?.options.strategies).toEqual({
          secret: 'redact',
          private_key: 'drop',
          credential: { strategy: 'mask', keep_first: 4, keep_last: 4 },
        });
        expect(byType(output, 'project')?.options).toEqual({
          exclude: ['**.raw_data', '**._raw'],
          max_string: 20000,
          max_chars: 120000,
        });
        expect(input.map((s) => [s.type, s.options])).toEqual([
          ['guard_secrets', { action: 'reject' }],
          ['depseudonymize', {}],
        ]);
      },
    );

    it('strict pseudonymises identifiers, redacts credentials and projects harder', () => {
      const { output, input } = plan('strict');
      expect(output.map((s) => s.type)).toEqual(['sanitize', 'redact', 'project', 'annotate']);
      expect(byType(output, 'sanitize')?.options.max_free_text).toBe(1000);
      expect(byType(output, 'redact')?.options.strategies).toMatchObject({
        credential: 'redact',
        identifier: 'pseudonymize',
        network: 'pseudonymize',
        pii: 'pseudonymize',
        free_text: 'pseudonymize',
      });
      expect(byType(output, 'project')?.options).toEqual({
        exclude: ['**.raw_data', '**._raw', '**.user_data'],
        max_string: 4000,
        max_chars: 100000,
      });
      expect(input.map((s) => s.type)).toEqual(['guard_secrets', 'depseudonymize']);
    });

    it('audit writes annotations inline and labels findings', () => {
      expect(byType(plan('audit').output, 'annotate')?.options).toEqual({
        inline: true,
        label_findings: true,
      });
      expect(byType(plan('standard').output, 'annotate')?.options).toEqual({});
    });

    it('soc-analyst pseudonymises for analysts only, and aliases two accounts for everyone', () => {
      const analyst = plan('soc-analyst', as('analyst'));
      const lead = plan('soc-analyst', as('lead'));
      expect(byType(analyst.output, 'redact')?.options.strategies).toMatchObject({
        identifier: 'pseudonymize',
      });
      expect(byType(lead.output, 'redact')?.options.strategies).not.toHaveProperty('identifier');
      for (const { output } of [analyst, lead]) {
        expect(output.map((s) => s.type)).toEqual([
          'sanitize',
          'redact',
          'project',
          'annotate',
          'substitute',
        ]);
        expect(byType(output, 'substitute')?.options).toEqual({
          aliases: { aws_account_id: { '111111111111': 'prod-payments', '222222222222': 'shared-services' } },
        });
      }
    });

    it('soc-analyst labels findings with risk only on findings tools', () => {
      const policy = load('soc-analyst');
      const findings = policy.transformPlan(tool('list_findings'), as('analyst')).output;
      expect(byType(findings, 'annotate')?.options).toEqual({ label_findings: true });
      expect(byType(plan('soc-analyst', as('analyst')).output, 'annotate')?.options).toEqual({});
    });
  });

  it('keeps outputSchema only where the pipeline is empty (open, and preview_transform)', () => {
    const standard = load('standard');
    expect(standard.outputPipeline(tool('get_asset'), local).isEmpty).toBe(false);
    expect(standard.outputPipeline(tool('preview_transform'), local).isEmpty).toBe(true);
    expect(load('open').outputPipeline(tool('get_asset'), local).isEmpty).toBe(true);
    const plain = defineTool({ name: 'x', handler: () => 1 });
    expect(load('open').inputPipeline(plain, local).isEmpty).toBe(true);
  });
});
