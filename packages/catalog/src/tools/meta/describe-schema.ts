import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import { COMPLIANCE_STATUSES } from '../../model/finding.js';
import { SEVERITIES } from '../../model/severity.js';
import { PROVIDERS } from '../../model/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';
import {
  assetTypesByFamily,
  edgeTypeVerbs,
  RELATION_GROUPS,
  RELATION_TYPES_BY_GROUP,
} from './vocabulary/index.js';

export const SCHEMA_SECTIONS = [
  'all',
  'asset_types',
  'edge_types',
  'severities',
  'relation_types',
  'relation_groups',
  'compliance_statuses',
  'providers',
] as const;
export type SchemaSection = (typeof SCHEMA_SECTIONS)[number];

function relationTypesByGroup(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const group of RELATION_GROUPS) out[group] = [...RELATION_TYPES_BY_GROUP[group]];
  return out;
}

/** The vocabulary, whole or one section. */
export function describeSchema(section: SchemaSection): Record<string, unknown> {
  switch (section) {
    case 'asset_types':
      return { asset_types: assetTypesByFamily() };
    case 'edge_types':
      return { edge_types: edgeTypeVerbs() };
    case 'severities':
      return { severities: [...SEVERITIES] };
    case 'relation_types':
      return { relation_types: relationTypesByGroup() };
    case 'relation_groups':
      return { relation_groups: [...RELATION_GROUPS] };
    case 'compliance_statuses':
      return { compliance_statuses: [...COMPLIANCE_STATUSES] };
    case 'providers':
      return { providers: [...PROVIDERS] };
    case 'all':
      return {
        asset_types: assetTypesByFamily(),
        edge_types: edgeTypeVerbs(),
        severities: [...SEVERITIES],
        relation_groups: relationTypesByGroup(),
        compliance_statuses: [...COMPLIANCE_STATUSES],
        providers: [...PROVIDERS],
      };
  }
}

export function registerDescribeSchema(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'describe_schema',
    title: 'Describe schema',
    description:
      "cloudg's vocabulary: asset types by family, how each edge type reads, severities, relation types " +
      'by relation group, compliance statuses and providers. Use these exact values in filters.',
    category: 'meta',
    sensitivity: 'public',
    capabilities: [],
    input: {
      section: z.enum(SCHEMA_SECTIONS).default('all').describe('Which part of the vocabulary to return.'),
    },
    handler: (_ctx, args) => describeSchema(args.section),
  });
}
