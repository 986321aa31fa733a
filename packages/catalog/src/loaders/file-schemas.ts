import { z } from 'zod';
import { CollectionCoverageSchema } from '../model/coverage.js';
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
import { OrganizationTopologySchema } from '../model/organization.js';
import { UnresolvedReferenceSchema } from '../model/unresolved.js';

/** The files cloudg writes, as they are validated on the way in. Unknown keys are ignored. */

/**
 * A list checked later item by item (`parseAssetList` / `parseEdgeList`): only its being an
 * array is checked here, so a 50,000-item list is not walked (and copied) twice.
 */
const itemList = z.custom<unknown[]>((v) => Array.isArray(v), { message: 'Expected an array' });

/**
 * The map's envelope. Its `assets` and `edges` lists are checked item by item with
 * `parseAssetList` / `parseEdgeList` (fast path plus the asset and edge schemas).
 */
export const InventoryMapFileSchema = z.looseObject({
  summary: z.looseObject({ providers: z.array(z.string()).optional() }).optional(),
  providers: z.array(z.string()).optional(),
  regions: z.record(z.string(), z.array(z.string())).optional(),
  assets: itemList,
  edges: itemList,
  unresolved_references: z.array(UnresolvedReferenceSchema).optional(),
});

const D3LinkSchema = z.looseObject({
  source: z.union([z.string(), z.looseObject({ id: z.string() })]),
  target: z.union([z.string(), z.looseObject({ id: z.string() })]),
  type: z.string().optional(),
  edge_type: z.string().optional(),
  relationship: z.string().nullish(),
  description: z.string().nullish(),
  direction: z.string().nullish(),
  protocol: z.string().nullish(),
  port_range: z.string().nullish(),
  cidr: z.string().nullish(),
});
export type D3LinkInput = z.infer<typeof D3LinkSchema>;

export const FindingsReportFileSchema = z.looseObject({
  metadata: z.looseObject({ providers: z.array(z.string()).optional() }).optional(),
  summary: z.looseObject({}).optional(),
  assets: itemList.optional(),
  edges: itemList.optional(),
  graph: z.looseObject({ links: z.array(D3LinkSchema).optional() }).optional(),
  findings: z.array(FindingSchema),
  compliance: z.array(ComplianceResultSchema).optional(),
  compliance_results: z.array(ComplianceResultSchema).optional(),
  coverage: z.array(CollectionCoverageSchema).optional(),
  organization: OrganizationTopologySchema.nullish(),
  unresolved_references: z.array(UnresolvedReferenceSchema).optional(),
});

export const GenericFileSchema = z.looseObject({
  providers: z.array(z.string()).optional(),
  regions: z.record(z.string(), z.array(z.string())).optional(),
  assets: itemList.optional(),
  edges: itemList.optional(),
  findings: z.array(FindingSchema).optional(),
  compliance: z.array(ComplianceResultSchema).optional(),
  compliance_results: z.array(ComplianceResultSchema).optional(),
  coverage: z.array(CollectionCoverageSchema).optional(),
  organization: OrganizationTopologySchema.nullish(),
  unresolved_references: z.array(UnresolvedReferenceSchema).optional(),
});

export const FindingListSchema = z.array(FindingSchema);
export const OrganizationFileSchema = OrganizationTopologySchema;
