import { z } from 'zod';
import { looseResult } from '../workspace/args.js';

/**
 * Output schemas of the findings tools that publish one (`list_findings`, `findings_for_asset`,
 * `top_risks`, as the reference lists): every property optional, extra keys allowed, so a projected or
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

export const topRisksOutput = looseResult({
  dataset: z.string(),
  items: z.array(
    looseResult({
      asset: item,
      score: z.number(),
      components: looseResult({
        max_finding_risk: z.number(),
        exposure_factor: z.number(),
        internet_reachable: z.boolean(),
        transitive_dependents: z.number().int(),
        blast_factor: z.number(),
        open_findings: z.number().int(),
        volume_factor: z.number(),
      }),
      top_findings: z.array(item),
    }),
  ),
  total_candidates: z.number().int(),
  formula: z.string(),
});
