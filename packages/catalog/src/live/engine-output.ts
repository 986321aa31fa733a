import { McpLayerError } from '@cloudg/core';
import { z } from 'zod';
import { CloudAssetSchema } from '../model/asset.js';
import { CollectionCoverageSchema } from '../model/coverage.js';
import { NetworkEdgeSchema } from '../model/edge.js';
import { ComplianceResultSchema, type Finding, FindingSchema } from '../model/finding.js';
import { OrganizationTopologySchema } from '../model/organization.js';
import type { EngineCollection } from './engine.js';

/** An engine answered with data outside the inventory model (-32603, the first problems in `data`). */
export class EngineOutputError extends McpLayerError {}

const Collection = z.looseObject({
  assets: z.array(CloudAssetSchema).optional(),
  edges: z.array(NetworkEdgeSchema).optional(),
  findings: z.array(FindingSchema).optional(),
  compliance: z.array(ComplianceResultSchema).optional(),
  coverage: z.array(CollectionCoverageSchema).optional(),
  organization: OrganizationTopologySchema.nullable().optional(),
});

function fail(phase: string, error: z.ZodError): EngineOutputError {
  const problems = error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message }));
  return new EngineOutputError(
    `The collection engine's ${phase} result does not match the inventory model; nothing was added. This is a fault of the engine, not of the call.`,
    { data: { phase, problems } },
  );
}

/**
 * An engine's collection through the model's schemas, as a loaded file goes: defaults filled
 * (a finding without `compliance_frameworks` gets an empty list), wrong shapes refused with a
 * clear error instead of a TypeError deep in an analysis.
 */
export function checkedCollection(collection: EngineCollection, phase: string): EngineCollection {
  const parsed = Collection.safeParse(collection ?? {});
  if (!parsed.success) throw fail(phase, parsed.error);
  return { ...collection, ...(parsed.data as EngineCollection) };
}

export function checkedFindings(findings: unknown, phase: string): Finding[] {
  const parsed = z.array(FindingSchema).safeParse(findings ?? []);
  if (!parsed.success) throw fail(phase, parsed.error);
  return parsed.data;
}
