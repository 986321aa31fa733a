import { z } from 'zod';
import { looseResult } from '../workspace/args.js';

/** Output schema of `compliance_summary`: every property optional, extra keys allowed. */
export const complianceSummaryOutput = looseResult({
  dataset: z.string(),
  frameworks: z.array(
    looseResult({
      framework: z.string(),
      controls_evaluated: z.number().int(),
      controls_failing: z.number().int(),
      controls_passing: z.number().int(),
      controls_other: z.number().int(),
      pass_rate: z.number().nullable(),
      open_findings: z.number().int(),
      severity_breakdown: z.record(z.string(), z.number()),
      affected_assets: z.number().int(),
      uri: z.string(),
    }),
  ),
  hint: z.string(),
});
