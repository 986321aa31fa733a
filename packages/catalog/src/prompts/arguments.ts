import type { PromptArgument } from '@cloudg/core';
import {
  completeAssetRef,
  completeDatasetName,
  completeFindingId,
  completeFramework,
  completeSeverity,
} from '../completions/index.js';
import type { Workspace } from '../workspace/workspace.js';

type Arg = PromptArgument<Workspace>;

export const datasetArg: Arg = {
  name: 'dataset',
  description: 'Dataset name (see list_datasets). Empty = the active dataset.',
  required: false,
  completion: completeDatasetName,
};

export const refArg: Arg = {
  name: 'ref',
  description: 'Asset reference: id, ARN, unique name or unique ARN tail.',
  required: true,
  completion: completeAssetRef,
};

export const findingIdArg: Arg = {
  name: 'finding_id',
  description: 'Finding id (see list_findings).',
  required: true,
  completion: completeFindingId,
};

export const frameworkArg: Arg = {
  name: 'framework',
  description: 'Compliance framework, e.g. CIS-AWS or PCI-DSS (see list_frameworks).',
  required: true,
  completion: completeFramework,
};

export const severityArg: Arg = {
  name: 'severity',
  description: 'Lowest severity to plan for: CRITICAL, HIGH, MEDIUM, LOW or INFO (default HIGH).',
  required: false,
  completion: completeSeverity,
};

export const changeArg: Arg = {
  name: 'change',
  description: 'The planned change, in a few words (e.g. "remove port 5432 ingress").',
  required: false,
};

export const baseArg: Arg = {
  name: 'base',
  description: 'Baseline dataset (before).',
  required: true,
  completion: completeDatasetName,
};

export const targetArg: Arg = {
  name: 'target',
  description: 'Dataset to compare (after). Empty = the active dataset.',
  required: false,
  completion: completeDatasetName,
};
