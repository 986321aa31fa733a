import { InvalidArgumentsError, type Registry } from '@cloudg/core';
import { completeFramework } from '../completions/frameworks.js';
import { datasetFrameworks, matchFrameworksPreferExact } from '../compliance/framework-match.js';
import { frameworkView } from '../compliance/framework-view.js';
import { compliancePosture, copyPosture, NO_COMPLIANCE_HINT } from '../compliance/posture.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Workspace } from '../workspace/workspace.js';

export const COMPLIANCE_URI = 'cloudg://compliance';

function frameworkResource(dataset: Dataset, value: string) {
  const frameworks = matchFrameworksPreferExact(datasetFrameworks(dataset), value);
  if (frameworks.length === 0) {
    throw new InvalidArgumentsError(
      'No compliance framework of the active dataset matches the name. list_frameworks and compliance_summary show the names.',
      { data: { value, known: datasetFrameworks(dataset) } },
    );
  }
  return frameworkView(dataset, frameworks);
}

/** `cloudg://compliance` and `cloudg://compliance/{framework}`, over the active dataset. */
export function registerComplianceResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: COMPLIANCE_URI,
    name: 'compliance',
    title: 'Compliance posture',
    description:
      'compliance_summary of the active dataset for every framework: controls evaluated, failing and passing, pass rate, open findings by severity and affected assets.',
    category: 'compliance',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => {
      const dataset = ctx.app.get();
      const frameworks = compliancePosture(dataset, '').map(copyPosture);
      return frameworks.length
        ? { dataset: dataset.name, frameworks }
        : { dataset: dataset.name, frameworks, hint: NO_COMPLIANCE_HINT };
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://compliance/{framework}',
    name: 'compliance-framework',
    title: 'Framework compliance',
    description:
      'One framework of the active dataset (an exact name, else every name containing it): its posture rows and up to 300 failing controls, worst first.',
    category: 'compliance',
    sensitivity: 'internal',
    mimeType: 'application/json',
    completions: { framework: completeFramework },
    handler: (ctx, vars) => frameworkResource(ctx.app.get(), vars.framework ?? ''),
  });
}
