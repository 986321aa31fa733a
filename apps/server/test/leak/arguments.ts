/**
 * Arguments derived from a tool's input JSON Schema (or a prompt's argument list) and from the
 * planted data, so that a tool registered by a later issue is called without editing the test.
 * Each property is classified by its name, type, enum and description; the calls vary one
 * property at a time around a base of the required ones ("slots"), and the same slots are built
 * from real values and, under pseudonymising policies, from pseudonyms, so the two runs can be
 * compared call for call.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  $ref?: string;
  /** Values the server offers (the harness puts a template variable's completions here). */
  examples?: unknown[];
}

/** The values calls are built from: real ones, or the pseudonyms a strict client was given. */
export interface Values {
  /** Asset references of the planted assets: names, ids, ARNs / cloud ids. */
  assetRefs: string[];
  /** Substrings to search for. */
  queries: string[];
  /** The active dataset first, then the others. */
  datasets: () => string[];
  /** Names for datasets a tool creates. */
  newDatasets: string[];
  /** A dataset that may be dropped, when one exists. */
  throwaway: () => string | undefined;
  accounts: string[];
  tagFilters: string[];
  tagKeys: string[];
  providers: string[];
  regions: string[];
  severities: string[];
  findingIds: string[];
  frameworks: string[];
  /** Control ids of the planted compliance results (the first belongs to the first framework). */
  controlIds: string[];
  assetTypes: string[];
  edgeTypes: string[];
  metadataKeys: string[][];
  paths: string[];
  /** Report files about the planted assets, for maps of names to lists of paths. */
  reportPaths: string[];
  tokens: string[];
  toolNames: string[];
  json: unknown[];
  changes: string[];
  /** Values that are wrong for the argument but built from the data (errors must not leak either). */
  invalid: {
    assetRefs: string[];
    datasets: string[];
    enumValue: string;
    assetTypes: string[];
    fields: string[];
  };
}

export type Kind =
  | 'enum'
  | 'boolean'
  | 'number'
  | 'fields'
  | 'assetTypes'
  | 'metadataKeys'
  | 'assetRefList'
  | 'dataset'
  | 'baseDataset'
  | 'newDataset'
  | 'throwawayDataset'
  | 'assetRef'
  | 'query'
  | 'provider'
  | 'region'
  | 'account'
  | 'tagFilter'
  | 'tagKey'
  | 'severity'
  | 'findingId'
  | 'findingIdList'
  | 'framework'
  | 'controlId'
  | 'assetType'
  | 'edgeType'
  | 'path'
  | 'pathMap'
  | 'cursor'
  | 'token'
  | 'toolName'
  | 'listed'
  | 'examples'
  | 'json'
  | 'change'
  | 'unknown';

/** Kinds whose values differ between the real and the pseudonymised run. */
export const IDENTIFYING_KINDS: ReadonlySet<Kind> = new Set<Kind>([
  'assetRef',
  'assetRefList',
  'dataset',
  'baseDataset',
  'throwawayDataset',
  'query',
  'account',
  'tagFilter',
]);

export interface ToolInfo {
  name: string;
  /** From the spec's annotations: the tool changes the workspace. */
  writes: boolean;
  destructive: boolean;
}

function types(schema: JsonSchema): string[] {
  const out = new Set<string>();
  const visit = (s: JsonSchema) => {
    if (Array.isArray(s.type)) for (const t of s.type) out.add(t);
    else if (s.type) out.add(s.type);
    for (const alt of s.anyOf ?? []) visit(alt);
  };
  visit(schema);
  return [...out];
}

function enumOf(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  for (const alt of schema.anyOf ?? []) if (alt.enum) return alt.enum;
  return undefined;
}

function arrayItems(schema: JsonSchema): JsonSchema | undefined {
  if (schema.items) return schema.items;
  for (const alt of schema.anyOf ?? []) if (alt.items) return alt.items;
  return undefined;
}

/** `Valid: a, b, c` or `Filter: a, b or c` at the end of a description. */
export function listedValues(description: string | undefined): string[] {
  if (!description) return [];
  const colon = description.lastIndexOf(':');
  if (colon < 0) return [];
  const words = description
    .slice(colon + 1)
    .split(/,|\bor\b|\band\b/)
    .map((w) => w.trim().replace(/\.$/, ''));
  return words.length >= 2 && words.every((w) => /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(w)) ? words : [];
}

const ASSET_REF_NAMES = new Set([
  'ref',
  'asset',
  'asset_ref',
  'asset_id',
  'resource',
  'resource_id',
  'node',
  'node_id',
  'source',
  'target',
  'source_ref',
  'target_ref',
  'from',
  'to',
  'start',
  'end',
  'via',
]);
const DATASET_NAMES = new Set(['dataset', 'dataset_name', 'base', 'base_dataset', 'target_dataset']);

/** What a property holds. `tool` is absent for prompt arguments and template variables. */
export function kindOf(prop: string, schema: JsonSchema, tool?: ToolInfo): Kind {
  const t = types(schema);
  const description = schema.description ?? '';
  const mentionsDataset = /\bdataset\b|\bcopy\b/i.test(description);
  if (enumOf(schema)) return 'enum';
  if (t.includes('boolean') && !t.includes('string')) return 'boolean';
  if ((t.includes('integer') || t.includes('number')) && !t.includes('string')) return 'number';
  if (t.includes('array')) {
    if (prop === 'fields') return 'fields';
    if (/asset_types|^types$/.test(prop)) return 'assetTypes';
    if (prop === 'keys') return 'metadataKeys';
    if (/^finding_ids$/.test(prop)) return 'findingIdList';
    if (/refs|assets|ids|nodes|members/.test(prop)) return 'assetRefList';
    if (!arrayItems(schema)?.type || t.length > 2) return 'json';
    return 'unknown';
  }
  // An object of lists of strings keyed by names the description lists (tool -> report paths).
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (t.includes('object') && values && types(values).includes('array') && listedValues(description).length)
    return 'pathMap';
  if (prop === 'data' || (t.length === 0 && (schema.$ref || schema.anyOf))) return 'json';
  if (prop === 'name' || prop === 'new_name') {
    if (tool?.destructive) return 'throwawayDataset';
    if (prop === 'new_name' || /default derives|new|copy/i.test(description)) return 'newDataset';
    if (mentionsDataset || /activate|select/i.test(description)) return 'dataset';
  }
  if (prop === 'base' || prop === 'base_dataset')
    return mentionsDataset || !tool ? 'baseDataset' : 'assetRef';
  if (DATASET_NAMES.has(prop) || ((prop === 'target' || prop === 'name') && mentionsDataset))
    return 'dataset';
  if (ASSET_REF_NAMES.has(prop)) return 'assetRef';
  // A string the schema gives examples for (a SPARQL query, say) is exercised with those, before
  // the name-based guesses below: the tool's own examples are what it accepts.
  if (t.includes('string') && Array.isArray(schema.examples) && schema.examples.length > 0) return 'examples';
  if (/^(query|search|q|text|contains)$/.test(prop)) return 'query';
  if (prop === 'provider' || prop === 'providers') return 'provider';
  if (prop === 'region') return 'region';
  if (/^(account_id|account|subscription|subscription_id|project|project_id)$/.test(prop)) return 'account';
  if (prop === 'tag') return 'tagFilter';
  if (prop === 'key' || prop === 'tag_key') return 'tagKey';
  if (/severity/.test(prop)) return 'severity';
  if (/^finding(_id)?$/.test(prop)) return 'findingId';
  if (/^framework/.test(prop)) return 'framework';
  if (/^control(_id)?$/.test(prop)) return 'controlId';
  if (prop === 'asset_type' || prop === 'type') return 'assetType';
  if (prop === 'edge_type') return 'edgeType';
  if (/^(path|file|file_path)$/.test(prop)) return 'path';
  if (prop === 'cursor') return 'cursor';
  if (prop === 'token' || prop === 'pseudonym') return 'token';
  if (prop === 'tool') return 'toolName';
  if (prop === 'change' || prop === 'planned_change') return 'change';
  if (listedValues(description).length > 0) return 'listed';
  return 'unknown';
}

/** Valid values of a property, the first being the one a base call uses. */
export function candidates(kind: Kind, schema: JsonSchema, v: Values): unknown[] {
  switch (kind) {
    case 'enum':
      return [...(enumOf(schema) ?? [])];
    case 'boolean':
      return [true, false];
    case 'number':
      // Defaults are fine; a limit of one also exercises the cursor of the next page.
      return [];
    case 'fields': {
      const valid = listedValues(schema.description);
      return [
        ['name', 'type'],
        ['name', 'uri'],
        ['name'],
        ...valid.map((f) => [f]),
        ...(valid.length ? [valid] : []),
      ];
    }
    case 'assetTypes':
      return v.assetTypes.map((t) => [t]);
    case 'metadataKeys':
      return v.metadataKeys;
    case 'assetRefList':
      return [v.assetRefs.slice(0, 2)];
    case 'dataset':
      return v.datasets();
    case 'baseDataset': {
      const [active, ...others] = v.datasets();
      return [...others, ...(active ? [active] : [])];
    }
    case 'newDataset':
      return v.newDatasets;
    case 'throwawayDataset': {
      const name = v.throwaway();
      return name ? [name] : [];
    }
    case 'assetRef':
      return v.assetRefs;
    case 'query':
      return v.queries;
    case 'provider':
      return v.providers;
    case 'region':
      return v.regions;
    case 'account':
      return v.accounts;
    case 'tagFilter':
      return v.tagFilters;
    case 'tagKey':
      return v.tagKeys;
    case 'severity':
      return v.severities;
    case 'findingId':
      return v.findingIds;
    case 'findingIdList':
      return [v.findingIds.slice(0, 2)];
    case 'framework':
      return v.frameworks;
    case 'controlId':
      return v.controlIds;
    case 'assetType':
      return v.assetTypes;
    case 'edgeType':
      return v.edgeTypes;
    case 'path':
      return v.paths;
    case 'pathMap':
      return listedValues(schema.description).map((key) => ({ [key]: v.reportPaths }));
    case 'cursor':
      return [];
    case 'token':
      return v.tokens;
    case 'toolName':
      return v.toolNames;
    case 'listed':
      return listedValues(schema.description);
    case 'examples':
      return [...(schema.examples ?? [])];
    case 'json':
      return v.json;
    case 'change':
      return v.changes;
    case 'unknown':
      return [];
  }
}

/** Wrong values built from the data: an unknown asset, a bad enum, an absent dataset... */
export function invalidCandidates(kind: Kind, v: Values): unknown[] {
  switch (kind) {
    case 'assetRef':
    case 'findingId':
      return v.invalid.assetRefs;
    case 'assetRefList':
    case 'findingIdList':
      return [v.invalid.assetRefs];
    case 'dataset':
    case 'baseDataset':
    case 'throwawayDataset':
      return v.invalid.datasets;
    case 'enum':
    case 'provider':
    case 'region':
    case 'severity':
    case 'assetType':
    case 'edgeType':
    case 'framework':
    case 'listed':
    case 'examples':
      return [v.invalid.enumValue];
    case 'assetTypes':
      return [v.invalid.assetTypes];
    case 'fields':
      return [v.invalid.fields];
    case 'pathMap':
      return [{ [v.invalid.enumValue]: v.reportPaths }];
    default:
      return [];
  }
}

export interface Variant {
  args: Record<string, unknown>;
  /** Stable across the real and the pseudonymised run: `base`, `ref#1`, `group_by#3`, `ref!0`. */
  slot: string;
  invalid: boolean;
  /** The kind of the property the slot varies (none for `base`). */
  kind?: Kind;
}

/** Fallback for a required property nothing above recognises: most such strings name an asset. */
function fallback(kind: Kind, schema: JsonSchema, v: Values): unknown {
  const t = types(schema);
  if (kind === 'number' || t.includes('integer') || t.includes('number'))
    return schema.default ?? schema.minimum ?? 1;
  if (kind === 'boolean') return true;
  if (t.includes('array')) return [v.assetRefs[0]];
  return v.assetRefs[0];
}

/**
 * The calls for one tool: a base call with every required property, then one call per candidate
 * of each property (one property varied at a time), then the invalid calls.
 */
export function toolVariants(schema: JsonSchema, v: Values, tool?: ToolInfo): Variant[] {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const kinds = new Map(props.map(([name, s]) => [name, kindOf(name, s, tool)]));
  const base: Record<string, unknown> = {};
  for (const [name, s] of props) {
    if (!required.has(name)) continue;
    const kind = kinds.get(name)!;
    const first = candidates(kind, s, v)[0];
    base[name] = first === undefined ? fallback(kind, s, v) : first;
  }
  const out: Variant[] = [{ args: base, slot: 'base', invalid: false }];
  const seen = new Set([JSON.stringify(base)]);
  const push = (variant: Variant) => {
    const key = JSON.stringify(variant.args);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(variant);
  };
  for (const [name, s] of props) {
    const kind = kinds.get(name)!;
    candidates(kind, s, v).forEach((value, i) => {
      push({ args: { ...base, [name]: value }, slot: `${name}#${i}`, invalid: false, kind });
    });
    if (name === 'limit') push({ args: { ...base, limit: 1 }, slot: 'limit#1', invalid: false, kind });
  }
  for (const [name] of props) {
    const kind = kinds.get(name)!;
    invalidCandidates(kind, v).forEach((value, i) => {
      push({ args: { ...base, [name]: value }, slot: `${name}!${i}`, invalid: true, kind });
    });
  }
  return out;
}

/** A prompt's arguments described as a schema, so prompts take the same path as tools. */
export function promptSchema(
  args: readonly { name: string; required?: boolean; description?: string }[],
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const a of args) properties[a.name] = { type: 'string', description: a.description ?? '' };
  return { type: 'object', properties, required: args.filter((a) => a.required).map((a) => a.name) };
}
