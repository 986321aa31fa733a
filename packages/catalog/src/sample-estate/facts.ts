import { z } from 'zod';
import { CloudAssetSchema } from '../model/asset.js';
import { CollectionCoverageSchema } from '../model/coverage.js';
import { NetworkEdgeSchema } from '../model/edge.js';
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
import { OrganizationTopologySchema } from '../model/organization.js';
import { UnresolvedReferenceSchema } from '../model/unresolved.js';

/**
 * The sample estate's facts (`fixtures/sample-estate-facts.json`): the data model's objects
 * with the reference's field names, not yet in any file format. The generator turns them into
 * the files the documentation's examples load.
 */
export const SampleEstateFactsSchema = z.object({
  _about: z.string().optional(),
  providers: z.array(z.string()),
  regions: z.record(z.string(), z.array(z.string())),
  assets: z.array(CloudAssetSchema),
  edges: z.array(NetworkEdgeSchema),
  findings: z.array(FindingSchema),
  compliance: z.array(ComplianceResultSchema),
  coverage: z.array(CollectionCoverageSchema),
  organization: OrganizationTopologySchema,
  unresolved_references: z.array(UnresolvedReferenceSchema),
});
export type SampleEstateFacts = z.infer<typeof SampleEstateFactsSchema>;
