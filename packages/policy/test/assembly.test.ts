/** How pipelines are assembled (sections 10.2 to 10.5), checked on the specs the policy builds. */
import { defineTool, type Principal, type TransformHints } from '@cloudg/core';
import type { NormalizedSpec } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import type { PolicyDocument } from '../src/index.js';
import { as, load, local } from './helpers.js';

const tool = (name = 't', transformHints?: TransformHints, category = 'general') =>
  defineTool({ name, category, ...(transformHints ? { transformHints } : {}), handler: () => null });
const types = (specs: NormalizedSpec[]) => specs.map((s) => (s.id === s.type ? s.type : `${s.type}#${s.id}`));
const output = (doc: PolicyDocument, spec = tool(), who: Principal = local) =>
  load(doc).transformPlan(spec, who).output;
const input = (doc: PolicyDocument, spec = tool(), who: Principal = local) =>
  load(doc).transformPlan(spec, who).input;

describe('output pipeline (10.2)', () => {
  it('combines rule transforms by transforms_mode', () => {
    const base = { transforms: ['sanitize', 'project'] };
    expect(types(output({ ...base, rules: [{ transforms: ['annotate'] }] }))).toEqual([
      'sanitize',
      'project',
      'annotate',
    ]);
    expect(
      types(output({ ...base, rules: [{ transforms: ['annotate'], transforms_mode: 'prepend' }] })),
    ).toEqual(['annotate', 'sanitize', 'project']);
    expect(
      types(output({ ...base, rules: [{ transforms: ['annotate'], transforms_mode: 'replace' }] })),
    ).toEqual(['annotate']);
  });

  it('applies only the rules that match the call', () => {
    const doc = { transforms: ['sanitize'], rules: [{ match: { names: ['x*'] }, transforms: ['annotate'] }] };
    expect(types(output(doc, tool('xa')))).toEqual(['sanitize', 'annotate']);
    expect(types(output(doc, tool('ya')))).toEqual(['sanitize']);
  });

  it('deep-merges transform_options, by type (aliases too) then by id; lists are replaced', () => {
    const specs = output({
      transforms: [
        { type: 'project', options: { exclude: ['**.a'], max_list: 5 } },
        { type: 'redact', id: 'mine', options: { strategies: { secret: 'redact', pii: 'mask' } } },
      ],
      transform_options: { projection: { max_list: 7 }, mine: { default: 'hash' } },
      rules: [
        { transform_options: { project: { exclude: ['**.b'] }, DLP: { strategies: { pii: 'hash' } } } },
      ],
    });
    expect(specs[0]?.options).toEqual({ exclude: ['**.b'], max_list: 7 });
    expect(specs[1]?.options).toEqual({ strategies: { secret: 'redact', pii: 'hash' }, default: 'hash' });
  });

  it('moves alias and substitute steps that precede the last redact to just after it', () => {
    expect(
      types(
        output({
          transforms: [
            'alias',
            'sanitize',
            { type: 'substitute', id: 's1' },
            'redact',
            'project',
            { type: 'redact', id: 'second' },
            'annotate',
          ],
        }),
      ),
    ).toEqual(['sanitize', 'redact', 'project', 'redact#second', 'alias', 'substitute#s1', 'annotate']);
    expect(types(output({ transforms: ['sanitize', 'redact', 'alias'] }))).toEqual([
      'sanitize',
      'redact',
      'alias',
    ]);
    expect(types(output({ transforms: ['alias', 'sanitize'] }))).toEqual(['alias', 'sanitize']);
  });

  it('a rule alias prepended before the redactor still runs after it', () => {
    const specs = output({
      transforms: ['sanitize', 'redact', 'project'],
      rules: [{ transforms: ['alias'], transforms_mode: 'prepend' }],
    });
    expect(types(specs)).toEqual(['sanitize', 'redact', 'alias', 'project']);
  });
});

describe('tool transform hints (10.4)', () => {
  const doc: PolicyDocument = {
    transforms: [
      'sanitize',
      { type: 'redact', options: { strategies: { identifier: 'pseudonymize' } } },
      { type: 'project', options: { max_list: 10 } },
      { type: 'substitute', options: { aliases: { aws_account_id: { '1': 'one' } } } },
    ],
    input_transforms: ['guard_secrets'],
  };

  it('skip removes by type, id or alias name; * removes everything', () => {
    expect(types(output(doc, tool('t', { skip: ['sanitise', 'substitute'] })))).toEqual([
      'redact',
      'project',
    ]);
    expect(output(doc, tool('t', { skip: ['*'] }))).toEqual([]);
    expect(output(doc, tool('t', { skip: 'all' }))).toEqual([]);
  });

  it('pseudonymize: false turns pseudonyms off in every redactor, project merges, transforms append', () => {
    const specs = output(
      doc,
      tool('t', {
        pseudonymise: false,
        projection: { max_list: 3, max_string: 9 },
        transforms: ['annotate'],
      }),
    );
    expect(specs.find((s) => s.type === 'redact')?.options).toMatchObject({ allow_pseudonymize: false });
    expect(specs.find((s) => s.type === 'project')?.options).toEqual({ max_list: 3, max_string: 9 });
    expect(types(specs).at(-1)).toBe('annotate');
  });

  it('with honor_hints false only added transforms survive, policy-wide or from a rule', () => {
    const hints = { skip: ['*'], extra: ['annotate'], input_guard: false, depseudonymize: false };
    expect(types(output({ ...doc, honor_hints: false }, tool('t', hints)))).toEqual([
      'sanitize',
      'redact',
      'project',
      'substitute',
      'annotate',
    ]);
    expect(types(input({ ...doc, honor_hints: false }, tool('t', hints)))).toEqual([
      'guard_secrets',
      'depseudonymize',
    ]);
    const byRule = { ...doc, rules: [{ match: { roles: ['contractor'] }, honor_hints: false }] };
    expect(types(output(byRule, tool('t', hints), as('contractor')))).toHaveLength(5);
    expect(types(output(byRule, tool('t', hints), local))).toEqual(['annotate']);
  });

  it('preview_transform and reveal_token hints, as the catalog declares them', () => {
    const preview = tool('preview_transform', { skip: ['*'], input_guard: false, depseudonymize: false });
    expect(output(doc, preview)).toEqual([]);
    expect(input(doc, preview)).toEqual([]);
    const reveal = tool('reveal_token', {
      pseudonymize: false,
      skip: ['substitute', 'alias'],
      skip_input: ['guard_secrets', 'depseudonymize'],
    });
    expect(types(output(doc, reveal))).toEqual(['sanitize', 'redact', 'project']);
    expect(input(doc, reveal)).toEqual([]);
  });
});

describe('input pipeline (10.3)', () => {
  it('is the policy then the rules, with the depseudonymiser when the output needs reversing', () => {
    expect(
      types(input({ input_transforms: ['guard_secrets'], rules: [{ input_transforms: ['regex_replace'] }] })),
    ).toEqual(['guard_secrets', 'regex_replace']);
    const withPseudonyms = {
      transforms: [{ type: 'redact', options: { strategies: { ip: { strategy: 'tokenise' } } } }],
    };
    expect(types(input(withPseudonyms))).toEqual(['depseudonymize']);
    expect(types(input({ transforms: [{ type: 'redact', options: { default: 'pseudonymise' } }] }))).toEqual([
      'depseudonymize',
    ]);
    expect(
      types(input({ transforms: [{ type: 'redact', options: { strategies: { secret: 'redact' } } }] })),
    ).toEqual([]);
    const table = { aliases: { aws_account_id: { '111111111111': 'prod' } } };
    expect(types(input({ transforms: [{ type: 'alias', options: table }] }))).toEqual(['depseudonymize']);
    expect(types(input({ transforms: [{ type: 'substitute', options: table }] }))).toEqual([
      'depseudonymize',
    ]);
    expect(types(input({ transforms: [{ type: 'substitute', options: { aliases: {} } }] }))).toEqual([]);
    expect(types(input({ transforms: ['sanitize'] }))).toEqual(['depseudonymize']);
    expect(types(input({ transforms: [{ type: 'sanitize', options: { on_suspicious: 'flag' } }] }))).toEqual(
      [],
    );
  });

  it('leaves the depseudonymiser out when a hint opts out or pseudonymisation is off for the tool', () => {
    const doc = { transforms: [{ type: 'redact', options: { strategies: { identifier: 'pseudonymize' } } }] };
    expect(input(doc, tool('t', { depseudonymize: false }))).toEqual([]);
    expect(input(doc, tool('t', { skip_input: ['depseudonymise'] }))).toEqual([]);
    expect(input(doc, tool('t', { pseudonymize: false }))).toEqual([]);
  });

  it('does not apply transform_options to input transforms', () => {
    const specs = input({
      input_transforms: [{ type: 'guard_secrets', options: { action: 'reject' } }],
      transform_options: { guard_secrets: { action: 'redact' } },
    });
    expect(specs[0]?.options).toEqual({ action: 'reject' });
  });
});

describe('generic pipeline (10.5)', () => {
  it('uses the policy transforms with caller-only rule options, without rule transforms', () => {
    const policy = load('soc-analyst');
    const analyst = policy.genericSpecs(as('analyst'));
    expect(types(analyst)).toEqual(['sanitize', 'redact', 'project', 'annotate']);
    expect(analyst[1]?.options.strategies).toMatchObject({ identifier: 'pseudonymize' });
    expect(policy.genericSpecs(as('lead'))[1]?.options.strategies).not.toHaveProperty('identifier');
  });

  it('moves aliases after the redactor too, so previews match tool results (reference gap 18.2 fixed)', () => {
    const policy = load({ transforms: [{ type: 'alias', options: { aliases: {} } }, 'sanitize', 'redact'] });
    expect(types(policy.genericSpecs())).toEqual(['sanitize', 'redact', 'alias']);
    expect(types(policy.transformPlan(tool()).output)).toEqual(types(policy.genericSpecs()));
  });
});
