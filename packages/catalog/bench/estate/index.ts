/**
 * The realistic generated estate every benchmark uses: deterministic from a seed and a size.
 *
 *   const estate = generateEstate({ seed: 1, assets: 50_000 });
 *   await writeEstate('/tmp/estate', estate);
 *   await workspace.load('/tmp/estate/inventory');            // assets, edges, org, 2 findings/asset
 *   await workspace.load('/tmp/estate/scans/trivy', { kind: 'trivy' });   // the scanners' own files
 *
 * Files (paths relative to the output directory):
 *
 * - `inventory/inventory-map.json`, `inventory/inventory-organization.json` and
 *   `inventory/findings.json`: cloudg's own formats, written by the model's file functions; the
 *   directory loads as one dataset with every finding;
 * - `scans/prowler/*.ocsf.json` (one per account), `scans/scoutsuite/scoutsuite_results_*.js`
 *   (one per account), `scans/checkov/results_json.json` (Terraform and Kubernetes reports) and
 *   `scans/trivy/<artifact>.json` (one per scanned machine or image): the same findings as the
 *   scanners write them (`scans: false` leaves them out);
 * - `estate-summary.json`: the summary below.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { findingsReportFile, inventoryMapFile, organizationFile } from '../../src/model/files.js';
import type { ComplianceResult, Finding } from '../../src/model/finding.js';
import { computeInventorySummary } from '../../src/model/inventory-summary.js';
import type { OrganizationTopology } from '../../src/model/organization.js';
import { type PlannedFinding, planFindings } from './findings.js';
import { checkovFiles } from './scans/checkov.js';
import { prowlerFiles } from './scans/prowler.js';
import { scoutsuiteFiles } from './scans/scoutsuite.js';
import { trivyFiles } from './scans/trivy.js';
import { type EstateSummary, summarise } from './summary.js';
import { buildTopology, MIN_ASSETS } from './topology.js';

export type { EstateSummary, FlowProbe } from './summary.js';
export { MIN_ASSETS } from './topology.js';

export interface EstateOptions {
  seed: number;
  /** Number of assets, exactly (at least MIN_ASSETS). */
  assets: number;
  /** Findings per asset (default 2). */
  findingsPerAsset?: number;
  /** Also render the scanners' native reports (default true). */
  scans?: boolean;
}

export interface GeneratedEstate {
  options: Required<EstateOptions>;
  assets: CloudAsset[];
  edges: NetworkEdge[];
  findings: Finding[];
  compliance: ComplianceResult[];
  organization: OrganizationTopology;
  summary: EstateSummary;
  /**
   * Every file as `[path relative to the output directory, text]`, in a stable order, rendered
   * one at a time as the iteration asks for it: a 50,000-asset estate is a quarter of a
   * gigabyte of JSON, which need not sit in memory all at once.
   */
  files(): Iterable<[string, string]>;
}

const GENERATED_AT = '2026-01-15T12:00:00+00:00';
export const INVENTORY_DIR = 'inventory';
export const SCANS_DIR = 'scans';

/** Failed controls named by the findings, one result per framework and control. */
function complianceOf(findings: readonly Finding[]): ComplianceResult[] {
  const byKey = new Map<string, ComplianceResult>();
  for (const f of findings) {
    const refs = Array.isArray(f.compliance_controls)
      ? (f.compliance_controls as { framework: string; control_id: string }[])
      : [];
    for (const ref of refs) {
      const id = `${ref.framework}/${ref.control_id}`;
      let result = byKey.get(id);
      if (!result) {
        result = {
          id,
          framework: ref.framework,
          control_id: ref.control_id,
          control_title: '',
          status: 'FAIL',
          finding_ids: [],
        };
        byKey.set(id, result);
      }
      result.finding_ids.push(f.id);
    }
  }
  return [...byKey.values()];
}

function* renderFiles(
  estate: Omit<GeneratedEstate, 'files' | 'summary'>,
  planned: readonly PlannedFinding[],
  summary: EstateSummary,
): Generator<[string, string]> {
  const providers = ['aws', 'azure', 'gcp'];
  const regions: Record<string, string[]> = {};
  for (const a of estate.assets) {
    const p = a.provider.toLowerCase();
    const list = regions[p] ?? [];
    if (a.region !== 'global' && !list.includes(a.region)) list.push(a.region);
    regions[p] = list;
  }
  yield [
    `${INVENTORY_DIR}/inventory-map.json`,
    JSON.stringify(
      inventoryMapFile({
        assets: estate.assets,
        edges: estate.edges,
        providers,
        regions,
        organization: estate.organization,
        unresolved_references: [],
      }),
    ),
  ];
  yield [
    `${INVENTORY_DIR}/inventory-organization.json`,
    `${JSON.stringify(organizationFile(estate.organization), null, 2)}\n`,
  ];
  yield [
    `${INVENTORY_DIR}/findings.json`,
    JSON.stringify(
      findingsReportFile({
        generatedAt: GENERATED_AT,
        findings: estate.findings,
        compliance: estate.compliance,
        providers,
      }),
    ),
  ];
  if (estate.options.scans) {
    for (const render of [prowlerFiles, scoutsuiteFiles, checkovFiles, trivyFiles])
      for (const [path, text] of render(planned)) yield [`${SCANS_DIR}/${path}`, text];
  }
  yield ['estate-summary.json', `${JSON.stringify(summary, null, 2)}\n`];
}

/** Generate the estate of `options` in memory: the model, its summary and every file. */
export function generateEstate(options: EstateOptions): GeneratedEstate {
  const opts: Required<EstateOptions> = {
    seed: options.seed,
    assets: options.assets,
    findingsPerAsset: options.findingsPerAsset ?? 2,
    scans: options.scans ?? true,
  };
  if (!Number.isInteger(opts.seed)) throw new RangeError('seed must be an integer');
  if (!Number.isInteger(opts.assets) || opts.assets < MIN_ASSETS)
    throw new RangeError(`assets must be an integer of at least ${MIN_ASSETS}`);
  if (!(opts.findingsPerAsset >= 0 && opts.findingsPerAsset <= 20))
    throw new RangeError('findingsPerAsset must be between 0 and 20');
  const topology = buildTopology(opts.seed, opts.assets);
  const planned = planFindings(
    topology.rng,
    topology.assets,
    topology.edges,
    Math.round(opts.assets * opts.findingsPerAsset),
  );
  const findings = planned.map((p) => p.finding);
  const compliance = complianceOf(findings);
  const inventory = computeInventorySummary({
    assets: topology.assets,
    edges: topology.edges,
    providers: ['aws', 'azure', 'gcp'],
    organization: topology.organization,
    unresolved_references: [],
  });
  const summary = summarise({
    seed: opts.seed,
    assets: topology.assets,
    edges: topology.edges,
    findings: planned,
    inventory,
    hostile: topology.hostile,
  });
  const estate = {
    options: opts,
    assets: topology.assets,
    edges: topology.edges,
    findings,
    compliance,
    organization: topology.organization,
  };
  return { ...estate, summary, files: () => renderFiles(estate, planned, summary) };
}

export interface WrittenEstate {
  dir: string;
  /** The directory `load_dataset` / `Workspace.load` reads as one dataset. */
  inventoryDir: string;
  scansDir: string;
  files: number;
  bytes: number;
}

/** Write an estate (or generate one from options first) under `dir`. */
export async function writeEstate(
  dir: string,
  estate: GeneratedEstate | EstateOptions,
): Promise<WrittenEstate> {
  const generated = 'files' in estate ? estate : generateEstate(estate);
  const made = new Set<string>();
  let bytes = 0;
  let files = 0;
  // Rendering is CPU work on this thread and writing happens in libuv's pool: keep a few writes
  // in flight while the next file renders, instead of waiting for each in turn.
  const inFlight = new Set<Promise<void>>();
  for (const [rel, text] of generated.files()) {
    files += 1;
    const target = join(dir, rel);
    const parent = dirname(target);
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    bytes += Buffer.byteLength(text);
    const write: Promise<void> = writeFile(target, text).finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= 8) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return {
    dir,
    inventoryDir: join(dir, INVENTORY_DIR),
    scansDir: join(dir, SCANS_DIR),
    files,
    bytes,
  };
}
