/**
 * `guard_secrets`: the input-side check that refuses (or redacts) secrets in arguments, so
 * credentials never travel through the model (section 11.3).
 */
import { SecretArgumentError } from '../errors.js';
import type { Transform, TransformContext } from '../types.js';
import { OptionReader } from '../util/options.js';
import { mergeReport, type RedactBuildContext, Redactor } from './redact/index.js';

export const GUARD_OPTIONS = ['action', 'categories', 'min_confidence', 'custom_detectors'] as const;

export class SecretArgumentGuard implements Transform {
  readonly name = 'guard_secrets';
  readonly action: 'reject' | 'redact';
  private readonly redactor: Redactor;

  constructor(
    options: Record<string, unknown> = {},
    build: RedactBuildContext = {},
    readonly id = 'guard_secrets',
  ) {
    const o: OptionReader = new OptionReader('guard_secrets', options, GUARD_OPTIONS);
    this.action = o.str('action', 'reject', ['reject', 'redact']);
    const categories = o.strList('categories', ['secret']);
    const strategies: Record<string, unknown> = { sensitive_key: 'redact' };
    for (const c of categories) strategies[c] = 'redact';
    this.redactor = new Redactor(
      {
        strategies,
        key_rules: ['sensitive_key'],
        min_confidence: o.num('min_confidence', 0.8, 0),
        custom_detectors: o.list('custom_detectors'),
        scan_keys: false,
        tags: false,
        name_mentions: false,
      },
      // The guard never pseudonymises, so it needs no vault.
      {
        ...(build.detectors ? { detectors: build.detectors } : {}),
        ...(build.disabledDetectors ? { disabledDetectors: build.disabledDetectors } : {}),
      },
      id,
      { categories },
    );
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    const { value: out, counts } = this.redactor.run(value, {});
    const found = counts.redacted;
    if (!found || Object.keys(found).length === 0) return value;
    if (this.action === 'reject') throw new SecretArgumentError(Object.keys(found).sort());
    mergeReport(ctx.report, { redacted: found }, 'redacted_arguments');
    return out;
  }
}
