import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import { findingsReportFile, inventoryMapFile, organizationFile } from '../model/files.js';
import type { Finding } from '../model/finding.js';
import { type SampleEstateFacts, SampleEstateFactsSchema } from './facts.js';
import {
  checkovResults,
  ocsfRecord,
  prowlerJsonLines,
  scoutsuiteFiles,
  sgWebAsff,
  trivyReport,
} from './scanner-files.js';

/** The report timestamp written into generated files (the sample's collection time). */
const GENERATED_AT = '2026-01-15T12:00:00+00:00';

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Every file of the sample estate, by relative path:
 *
 * - `inventory/`: `inventory-map.json`, `findings.json` (findings and compliance, merged into
 *   an inventory load) and `inventory-organization.json`;
 * - `report/findings.json`: the full findings report (assets, edges, findings, compliance and
 *   the D3 graph) without the discovery data;
 * - `scans/`: native scanner output (Prowler ASFF, OCSF and JSON Lines, ScoutSuite, Checkov,
 *   Trivy) built from the same findings;
 * - `after/`: the inventory edited the way the reference's `diff_datasets` example describes.
 */
export function sampleEstateFiles(facts: SampleEstateFacts): Record<string, string> {
  const files: Record<string, string> = {};
  const inventory = {
    assets: facts.assets,
    edges: facts.edges,
    providers: facts.providers,
    regions: facts.regions,
    organization: facts.organization,
    unresolved_references: facts.unresolved_references,
  };
  files['inventory/inventory-map.json'] = json(inventoryMapFile(inventory));
  files['inventory/inventory-organization.json'] = json(organizationFile(facts.organization));
  files['inventory/findings.json'] = json(
    findingsReportFile({
      generatedAt: GENERATED_AT,
      findings: facts.findings,
      compliance: facts.compliance,
      providers: facts.providers,
    }),
  );
  files['report/findings.json'] = json(
    findingsReportFile({
      generatedAt: GENERATED_AT,
      assets: facts.assets,
      edges: facts.edges,
      findings: facts.findings,
      compliance: facts.compliance,
      providers: facts.providers,
    }),
  );

  files['scans/prowler-asff.json'] = json(sgWebAsff(facts));
  const ssh = facts.findings.find((f) => f.id === 'f-ssh-open');
  if (ssh) files['scans/prowler-ocsf.json'] = json([ocsfRecord(facts, ssh)]);
  files['scans/prowler-ocsf-all.json'] = json(
    facts.findings.filter((f) => f.source_tool === 'prowler').map((f) => ocsfRecord(facts, f)),
  );
  files['scans/prowler-asff.jsonl'] = prowlerJsonLines(facts);
  for (const [name, text] of Object.entries(scoutsuiteFiles(facts))) files[`scans/scoutsuite/${name}`] = text;
  files['scans/checkov/results_json.json'] = json(checkovResults(facts));
  files['scans/trivy.json'] = json(trivyReport(facts));

  const after = editedEstate(facts);
  files['after/inventory-map.json'] = json(
    inventoryMapFile({ ...inventory, assets: after.assets, edges: after.edges }),
  );
  files['after/inventory-organization.json'] = files['inventory/inventory-organization.json'];
  files['after/findings.json'] = json(
    findingsReportFile({
      generatedAt: GENERATED_AT,
      findings: after.findings,
      compliance: facts.compliance,
      providers: facts.providers,
    }),
  );
  return files;
}

/**
 * The `after/` copy: the WAF and its PROTECTS edge removed, `web-2` internet-exposed with a new
 * INTERNET_EXPOSED edge and another owner tag, the SSH finding gone and the RDS backup finding
 * raised from MEDIUM to HIGH.
 */
function editedEstate(facts: SampleEstateFacts): {
  assets: CloudAsset[];
  edges: NetworkEdge[];
  findings: Finding[];
} {
  const assets = structuredClone(facts.assets).filter((a) => a.id !== 'waf-web');
  const web2 = assets.find((a) => a.id === 'web-2');
  if (web2) {
    web2.is_internet_exposed = true;
    web2.tags = { ...web2.tags, owner: 'edge-team' };
  }
  const edges = structuredClone(facts.edges).filter((e) => e.id !== 'e-waf-alb');
  edges.push({
    id: 'e-inet-web2',
    source_id: '0.0.0.0/0',
    target_id: 'web-2',
    edge_type: 'INTERNET_EXPOSED',
    relationship: 'INTERNET_REACHABLE',
    properties: {},
    description: null,
    ports: [],
    port_range: '8080',
    protocol: null,
    cidr: '0.0.0.0/0',
    direction: 'ingress',
  });
  const findings = structuredClone(facts.findings).filter((f) => f.id !== 'f-ssh-open');
  const backup = findings.find((f) => f.id === 'f-db-backup');
  if (backup) backup.severity = 'HIGH';
  return { assets, edges, findings };
}

/** Parse the facts file. */
export async function readSampleEstateFacts(path: string): Promise<SampleEstateFacts> {
  return SampleEstateFactsSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

/** Write the sample estate under `outDir`; returns the relative paths written, sorted. */
export async function writeSampleEstate(facts: SampleEstateFacts, outDir: string): Promise<string[]> {
  const files = sampleEstateFiles(facts);
  const paths = Object.keys(files).sort();
  for (const rel of paths) {
    const target = join(outDir, rel);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, files[rel] ?? '');
  }
  return paths;
}
