import { z } from 'zod';
import { looseResult } from '../workspace/args.js';

/**
 * Output schemas of the inventory tools: all properties optional, extra keys allowed, so a
 * projected or redacted result still validates.
 */

const item = z.looseObject({});

export const findAssetsOutput = looseResult({
  dataset: z.string(),
  total: z.number().int(),
  offset: z.number().int(),
  returned: z.number().int(),
  next_cursor: z.string().nullable(),
  truncated: z.boolean(),
  items: z.array(item),
  hint: z.string(),
});

const counts = z.record(z.string(), z.number());

export const getAssetOutput = looseResult({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  provider: z.string(),
  region: z.string(),
  account_id: z.string().nullable(),
  arn: z.string().nullable(),
  internet_exposed: z.boolean(),
  open_findings: z.number().int(),
  max_severity: z.string().nullable(),
  uri: z.string(),
  tags: z.record(z.string(), z.string()),
  dataset: z.string(),
  service: z.string(),
  relations: looseResult({
    outgoing: counts,
    incoming: counts,
    sample: z.array(item),
    total: z.number().int(),
    truncated: z.boolean(),
  }),
  dependencies: looseResult({ direct_depends_on: z.number().int(), direct_dependents: z.number().int() }),
  degree: looseResult({ in: z.number().int(), out: z.number().int() }),
  findings: z.array(item),
  metadata_keys: z.array(z.string()),
  collected_at: z.string().nullable(),
});

export const countAssetsOutput = looseResult({
  dataset: z.string(),
  group_by: z.string(),
  total: z.number().int(),
  group_count: z.number().int(),
  groups: counts,
  truncated: z.boolean(),
});
