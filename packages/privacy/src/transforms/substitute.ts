/**
 * `substitute`: alias, regex_replace, rename_keys and template in one step, in that order
 * (section 11.5). Only the aliases are reversed on input.
 */
import type { Transform, TransformContext } from '../types.js';
import { OptionReader } from '../util/options.js';
import { type AliasBuildContext, AliasMap } from './alias.js';
import { RegexReplace } from './regex-replace.js';
import { KeyRename } from './rename-keys.js';
import { TemplateField } from './template.js';

export const SUBSTITUTE_OPTIONS = [
  'aliases',
  'alias_files',
  'substring',
  'case_sensitive',
  'pseudonym_aware',
  'regex',
  'rename',
  'templates',
] as const;

export class Substitution implements Transform {
  readonly name = 'substitute';
  readonly aliasMap: AliasMap;
  private readonly steps: Transform[];

  constructor(
    options: Record<string, unknown> = {},
    build: AliasBuildContext = {},
    readonly id = 'substitute',
  ) {
    const o: OptionReader = new OptionReader('substitute', options, SUBSTITUTE_OPTIONS);
    const aliasOptions: Record<string, unknown> = {};
    if (o.has('aliases')) aliasOptions.aliases = o.raw('aliases');
    if (o.has('alias_files')) aliasOptions.files = o.raw('alias_files');
    for (const k of ['substring', 'case_sensitive', 'pseudonym_aware'])
      if (o.has(k)) aliasOptions[k] = o.raw(k);
    this.aliasMap = new AliasMap(aliasOptions, build, id, 'substitute');
    this.steps = [this.aliasMap];
    if (o.has('regex'))
      this.steps.push(new RegexReplace({ regex: o.raw('regex') }, id, 'substitute', 'regex'));
    if (o.has('rename'))
      this.steps.push(new KeyRename({ rename: o.raw('rename') }, id, 'substitute', 'rename'));
    if (o.has('templates'))
      this.steps.push(new TemplateField({ templates: o.raw('templates') }, id, 'substitute', 'templates'));
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    let v = value;
    for (const step of this.steps) v = step.apply(v, ctx);
    return v;
  }
}
