import type { Registry } from '@cloudg/core';
import { completeAssetType } from '../completions/asset-types.js';
import type { EdgeType } from '../model/vocabulary.js';
import { classOf } from '../ontology/classes.js';
import { describeSchema } from '../tools/meta/describe-schema.js';
import { parseVocabulary } from '../tools/meta/parse-vocabulary.js';
import {
  ASSET_TYPES,
  assetTypeInfo,
  EDGE_TYPE_ORDER,
  edgeTypeInfo,
  edgeTypeVerbs,
} from '../tools/meta/vocabulary/index.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * One asset type as `explain_asset_type` describes it, cut to what does not depend on a dataset.
 * The class is the ontology's (classOf), as the tool gives it, so resource and tool agree.
 */
function assetTypeEntry(value: string) {
  let type: string;
  try {
    type = parseVocabulary('asset type', value, ASSET_TYPES);
  } catch (error) {
    // A resource read fails as a missing reference (-32602), keeping the tool's message and data.
    const { message, data } = error as { message: string; data?: unknown };
    throw new ReferenceNotFoundError(message, { data });
  }
  const info = assetTypeInfo(type);
  return {
    asset_type: type,
    family: info?.family ?? null,
    note: info?.note ?? null,
    ontology_class: `cm:${classOf(type)}`,
    terraform_type: info?.terraform_type ?? null,
  };
}

/** Each edge type with how it reads (the bare verb, as describe_schema lists it), its typical endpoints and dependency direction. */
function edgeTypes(): Record<string, { reads_as: string; typical: string; dependency_direction: string }> {
  const verbs = edgeTypeVerbs();
  const out: Record<string, { reads_as: string; typical: string; dependency_direction: string }> = {};
  for (const type of EDGE_TYPE_ORDER as readonly EdgeType[]) {
    const info = edgeTypeInfo(type);
    out[type] = {
      reads_as: verbs[type] ?? '',
      typical: info.typical,
      dependency_direction: info.dependency_direction,
    };
  }
  return out;
}

/**
 * The vocabulary as resources: `cloudg://schema/asset-types`, `cloudg://schema/asset-types/{asset_type}`,
 * `cloudg://schema/edge-types` and `cloudg://schema/relation-types`. Public, built from the same
 * functions as describe_schema and explain_asset_type.
 */
export function registerSchemaResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: 'cloudg://schema/asset-types',
    name: 'schema-asset-types',
    title: 'Asset types',
    description: 'Every asset type, grouped by family (describe_schema section asset_types).',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'application/json',
    handler: () => describeSchema('asset_types').asset_types,
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://schema/asset-types/{asset_type}',
    name: 'schema-asset-type',
    title: 'One asset type',
    description: 'One asset type: asset_type, family, note, ontology_class and terraform_type.',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'application/json',
    completions: { asset_type: completeAssetType },
    handler: (_ctx, vars) => assetTypeEntry(vars.asset_type ?? ''),
  });

  registry.resource({
    uri: 'cloudg://schema/edge-types',
    name: 'schema-edge-types',
    title: 'Edge types',
    description:
      'Each edge type with reads_as (source <verb> target), typical endpoints and dependency_direction.',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'application/json',
    handler: () => edgeTypes(),
  });

  registry.resource({
    uri: 'cloudg://schema/relation-types',
    name: 'schema-relation-types',
    title: 'Relation types',
    description:
      'The ontology relation types, grouped by relation group (describe_schema section relation_types).',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'application/json',
    handler: () => describeSchema('relation_types').relation_types,
  });
}
