import { z } from 'zod';
import { looseResult } from '../workspace/args.js';

/**
 * Output schemas of the findings tools that publish one (`list_findings`, `findings_for_asset`,
 * as the reference lists): every property optional, extra keys allowed, so a projected or
 * redacted result still validates.
 */

const item = z.looseObject({});
const counts = z.record(z.string(), z.number());

export const listFindingsOutput = looseResult({
  dataset: z.string(),
  total: z.number().int(),
  offset: z.number().int(),
  returned: z.number().int(),
  next_cursor: z.string().nullable(),
  truncated: z.boolean(),
  severity_breakdown: counts,
  items: z.array(item),
});

export const findingsForAssetOutput = looseResult({
  dataset: z.string(),
  asset: item,
  total: z.number().int(),
  returned: z.number().int(),
  truncated: z.boolean(),
  items: z.array(item),
});
