import type { PromptArgument, ToolContext } from '@cloudg/core';
import {
  completeAssetRef,
  completeDatasetName,
  completeFindingId,
  completeSeverity,
} from '../completions/index.js';
import type { Workspace } from '../workspace/workspace.js';
import { datasetFrameworks } from './context/compliance.js';

type Arg = PromptArgument<Workspace>;

/** The dataset named in the completion request's context arguments, else the active one. */
function contextDataset(ctx: ToolContext<Workspace>) {
  const args = ctx.meta.arguments as Record<string, unknown> | undefined;
  const named = typeof args?.dataset === 'string' ? args.dataset.trim() : '';
  const ws = ctx.app;
  if (named ? !ws.has(named) : ws.activeName === null) return undefined;
  return ws.get(named || null);
}

/** Frameworks of the dataset (compliance results and finding tags) containing what was typed. */
export function completeFramework(ctx: ToolContext<Workspace>, partial: string): string[] {
  const dataset = contextDataset(ctx);
  if (!dataset) return [];
  const needle = partial.trim().toLowerCase();
  return datasetFrameworks(dataset).filter((fw) => fw.toLowerCase().includes(needle));
}

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
