/**
 * The README's pipeline snippet (region `pipelines`): a pipeline built from specs with a policy's
 * build context, run over a value. test/examples.test.ts runs it.
 */
// #region pipelines
import { buildPipeline, type TransformSpec } from '@cloudg/privacy';

// #endregion pipelines

type BuildContext = NonNullable<Parameters<typeof buildPipeline>[1]>;

export function runPipeline(context: BuildContext, input: unknown) {
  const { vault, detectors, disabledDetectors } = context;
  // #region pipelines
  const specs: TransformSpec[] = [
    'sanitize', // a name
    { type: 'redact', id: 'secrets-only', options: { strategies: { secret: 'redact' } } },
    { type: 'project', max_list: 50 }, // options may be inline
  ];
  const pipeline = buildPipeline(specs, { vault, detectors, disabledDetectors, profile: 'mine' });
  const { value, report } = pipeline.run(input, {
    direction: 'output',
    principal: { id: 'ann', roles: ['analyst'] },
  });
  // #endregion pipelines
  return { value, report };
}
