import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { InventoryResult } from '../dataset/dataset.js';
import type { NetworkEdge } from '../model/edge.js';
import { NetworkEdgeSchema } from '../model/edge.js';
import { type ListIssue, parseAssetList, parseEdgeList } from '../model/fast-parse.js';
import { invalidStructure } from './errors.js';
import {
  type D3LinkInput,
  FindingListSchema,
  FindingsReportFileSchema,
  GenericFileSchema,
  InventoryMapFileSchema,
  OrganizationFileSchema,
} from './file-schemas.js';
import { type ReadOptions, readJsonFile } from './read-file.js';

/** What one loader produced, before the workspace names and installs it. */
export interface LoadedData extends Partial<InventoryResult> {
  metadata?: Record<string, unknown>;
}

function validate<S extends z.ZodType>(schema: S, value: unknown, path: string, kind: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidStructure(path, kind, result.error.issues);
  return result.data;
}

/**
 * `inventory-map.json`, with `inventory-organization.json` and `findings.json` from the same
 * directory when they exist.
 */
export async function loadInventoryMap(
  mapPath: string,
  options: ReadOptions,
  document?: unknown,
): Promise<LoadedData> {
  const raw = document === undefined ? await readJsonFile(mapPath, options) : document;
  const file = validate(InventoryMapFileSchema, raw, mapPath, 'inventory map');
  const issues: ListIssue[] = [];
  const assets = parseAssetList(file.assets, issues);
  const edges = parseEdgeList(file.edges, issues);
  if (issues.length) throw invalidStructure(mapPath, 'inventory map', issues);
  const data: LoadedData = {
    assets,
    edges,
    providers: file.providers ?? file.summary?.providers ?? [],
    regions: file.regions ?? {},
    unresolved_references: file.unresolved_references ?? [],
    metadata: {},
  };
  const dir = dirname(mapPath);
  const orgPath = join(dir, 'inventory-organization.json');
  if (existsSync(orgPath)) {
    data.organization = validate(
      OrganizationFileSchema,
      await readJsonFile(orgPath, options),
      orgPath,
      'organization',
    );
  }
  const findingsPath = join(dir, 'findings.json');
  if (existsSync(findingsPath)) {
    const report = await loadFindingsReport(findingsPath, options);
    data.findings = report.findings ?? [];
    data.compliance = report.compliance ?? [];
    if (data.metadata) data.metadata.findings_source = findingsPath;
  }
  return data;
}

/** Edges rebuilt from a D3 graph's links, for reports that carry only the graph. */
export function edgesFromD3(links: readonly D3LinkInput[]): NetworkEdge[] {
  return links.map((l, i) =>
    NetworkEdgeSchema.parse({
      id: `d3-${i}`,
      source_id: typeof l.source === 'string' ? l.source : l.source.id,
      target_id: typeof l.target === 'string' ? l.target : l.target.id,
      edge_type: l.edge_type ?? l.type ?? 'REFERENCES',
      relationship: l.relationship || null,
      description: l.description || null,
      direction: l.direction || 'ingress',
      protocol: l.protocol || null,
      port_range: l.port_range || null,
      cidr: l.cidr || null,
    }),
  );
}

/** cloudg's `findings.json` report. */
export async function loadFindingsReport(
  path: string,
  options: ReadOptions,
  document?: unknown,
): Promise<LoadedData> {
  const raw = document === undefined ? await readJsonFile(path, options) : document;
  const file = validate(FindingsReportFileSchema, raw, path, 'findings report');
  const issues: ListIssue[] = [];
  const assets = parseAssetList(file.assets ?? [], issues);
  const edges = file.edges
    ? parseEdgeList(file.edges, issues)
    : file.graph?.links
      ? edgesFromD3(file.graph.links)
      : [];
  if (issues.length) throw invalidStructure(path, 'findings report', issues);
  return {
    assets,
    edges,
    findings: file.findings,
    compliance: file.compliance ?? file.compliance_results ?? [],
    coverage: file.coverage ?? [],
    organization: file.organization ?? null,
    unresolved_references: file.unresolved_references ?? [],
    providers: file.metadata?.providers ?? [],
    metadata: {},
  };
}

/** Generic JSON: `{assets, edges, findings, ...}` in the model's field names, or a list of findings. */
export function genericFromDocument(document: unknown, path: string): LoadedData {
  if (Array.isArray(document)) {
    return { findings: validate(FindingListSchema, document, path, 'generic findings list'), metadata: {} };
  }
  const file = validate(GenericFileSchema, document, path, 'generic');
  const issues: ListIssue[] = [];
  const assets = parseAssetList(file.assets ?? [], issues);
  const edges = parseEdgeList(file.edges ?? [], issues);
  if (issues.length) throw invalidStructure(path, 'generic', issues);
  return {
    assets,
    edges,
    findings: file.findings ?? [],
    compliance: file.compliance ?? file.compliance_results ?? [],
    coverage: file.coverage ?? [],
    organization: file.organization ?? null,
    unresolved_references: file.unresolved_references ?? [],
    providers: file.providers ?? [],
    regions: file.regions ?? {},
    metadata: {},
  };
}
