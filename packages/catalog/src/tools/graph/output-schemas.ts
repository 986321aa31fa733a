import { z } from 'zod';
import { looseResult } from '../workspace/args.js';

/**
 * Output schemas of the graph tools that publish one: every property optional, extra keys
 * allowed, so a projected or redacted result still validates.
 */

const item = z.looseObject({});
const path = looseResult({
  length: z.number().int(),
  nodes: z.array(item),
  edge_types: z.array(z.string()),
  summary: z.string(),
});

export const neighborsOutput = looseResult({
  dataset: z.string(),
  asset: item,
  nodes: z.array(item),
  edges: z.array(item),
  node_count: z.number().int(),
  edge_count: z.number().int(),
  truncated: z.boolean(),
});

export const getEdgesOutput = looseResult({
  dataset: z.string(),
  total: z.number().int(),
  offset: z.number().int(),
  returned: z.number().int(),
  next_cursor: z.string().nullable(),
  truncated: z.boolean(),
  items: z.array(item),
});

export const findPathsOutput = looseResult({
  dataset: z.string(),
  source: item,
  target: item,
  mode: z.string(),
  paths: z.array(path),
  total_found: z.number().int(),
  truncated: z.boolean(),
  hint: z.string(),
});

export const attackPathsOutput = looseResult({
  dataset: z.string(),
  paths: z.array(path),
  total_found: z.number().int(),
  truncated: z.boolean(),
  targets_considered: z.number().int(),
  hint: z.string(),
});

export const lateralMovementOutput = looseResult({
  dataset: z.string(),
  paths: z.array(path),
  total_found: z.number().int(),
  truncated: z.boolean(),
  starting_points: z.number().int(),
});

const dependencyItem = z.looseObject({
  via: z.string().optional(),
  relationship: z.string().nullable().optional(),
  depth: z.number().int().optional(),
  parent_id: z.string().optional(),
});

/** `depends_on` and `dependents`. */
export const dependencyListOutput = looseResult({
  dataset: z.string(),
  asset: item,
  total: z.number().int(),
  returned: z.number().int(),
  truncated: z.boolean(),
  items: z.array(dependencyItem),
});
