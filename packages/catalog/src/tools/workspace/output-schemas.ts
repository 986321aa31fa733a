import { z } from 'zod';
import { looseResult } from './args.js';

/**
 * Output schemas of the workspace tools. Every property is optional and every object allows
 * extra keys, so projection and redaction never make a result invalid.
 */

const listing = looseResult({
  name: z.string(),
  kind: z.string(),
  source: z.string(),
  loaded_at: z.string(),
  version: z.number().int(),
  providers: z.array(z.string()),
  assets: z.number().int(),
  edges: z.number().int(),
  findings: z.number().int(),
  compliance_results: z.number().int(),
  cached: z.record(z.string(), z.boolean()),
});

export const workspaceStatusOutput = looseResult({
  active_dataset: z.string().nullable(),
  datasets: z.array(listing),
  allowed_roots: z.array(z.string()),
  output_dir: z.string(),
  providers_configured: z.array(z.string()),
  next_steps: z.array(z.string()),
});

const counts = z.record(z.string(), z.number());

export const datasetSummaryOutput = looseResult({
  dataset: z.string(),
  kind: z.string(),
  source: z.string(),
  loaded_at: z.string(),
  version: z.number().int(),
  providers: z.array(z.string()),
  total_assets: z.number().int(),
  total_edges: z.number().int(),
  total_findings: z.number().int(),
  open_findings: z.number().int(),
  suppressed_findings: z.number().int(),
  severity_breakdown: counts,
  accounts: z.number().int(),
  regions: z.number().int(),
  internet_exposed: z.number().int(),
  cross_account_edges: z.number().int(),
  unlinked_assets: z.number().int(),
  unresolved_references: z.number().int(),
  compliance_frameworks: z.array(z.string()),
  assets_by_type: counts,
  assets_by_provider: counts,
  edges_by_type: counts,
  has_organization: z.boolean(),
  coverage_records: z.number().int(),
  organization: looseResult({
    id: z.string().nullable(),
    accounts: z.number().int(),
    ous: z.number().int(),
    control_tower: z.boolean(),
    governed_regions: z.array(z.string()),
  }),
});

const section = looseResult({
  count: z.number().int(),
  items: z.array(z.looseObject({})),
  truncated: z.boolean(),
});

export const diffDatasetsOutput = looseResult({
  base: z.string(),
  target: z.string(),
  assets: looseResult({
    added: section,
    removed: section,
    changed: section,
    unchanged: z.number().int(),
  }),
  edges: looseResult({ added: section, removed: section }),
  findings: looseResult({ new: section, resolved: section, severity_changed: section }),
  newly_internet_exposed: section,
});
