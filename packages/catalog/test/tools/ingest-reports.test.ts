/**
 * `ingest_reports` on the sample estate: the reference's documented calls (MCP_TOOLS.md,
 * "Findings" -> ingest_reports) and errors, and the per-path handling of real scanner files.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerIngestReports } from '../../src/tools/findings/ingest-reports.js';
import { copyEstate, workspaceAt } from '../support/estate.js';
import { call, callError } from './support.js';

const corpus = join(import.meta.dirname, '../fixtures/scanners');

let estate: { dir: string; cleanup: () => Promise<void> };
let layer: Layer<Workspace>;
let ws: Workspace;
beforeEach(async () => {
  estate = await copyEstate();
  ws = workspaceAt(estate.dir);
  const registry = defaultRegistry();
  // Until the findings index registers it, the test adds the tool itself.
  if (!registry.tools.has('ingest_reports')) registerIngestReports(registry);
  layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(estate.dir, 'inventory'), name: 'sample' });
});
afterEach(async () => {
  await estate.cleanup();
});

describe('the documented examples', () => {
  it('adds a one-record Prowler ASFF file naming sg-web by ARN to the active dataset', async () => {
    const result = await call(layer, 'ingest_reports', { reports: { prowler: ['scans/prowler-asff.json'] } });
    expect(result).toEqual({
      dataset: 'sample',
      parsed: 1,
      per_path: [{ tool: 'prowler', path: 'scans/prowler-asff.json', findings: 1 }],
      errors: [],
      findings_before: 12,
      findings_after: 13,
      matched_to_assets: 1,
      normalised: true,
      deduplication: { merged: 0, reasons: [] },
      active: 'sample',
    });
    const added = ws.get('sample').findings.at(-1);
    expect(added).toMatchObject({
      source_tool: 'prowler',
      resource_arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0web',
    });
    expect(ws.get('sample').indexes.assetOfFinding(added!)?.name).toBe('sg-web');
  });

  it('round trip: ingest -> normalise -> compliance_summary', async () => {
    const cisAws = async () => {
      const out = await call(layer, 'compliance_summary', { framework: 'CIS-AWS' });
      const [row] = out.frameworks as Record<string, unknown>[];
      return [row?.controls_evaluated, row?.controls_passing, row?.pass_rate, row?.open_findings];
    };
    expect(await cisAws()).toEqual([4, 1, 25.0, 6]);
    await call(layer, 'ingest_reports', { reports: { prowler: ['scans/prowler-asff.json'] } });
    // The normaliser adds CIS-AWS-aggregate for the CIS-AWS findings no control lists (as
    // normalise_findings does on the sample), and the new sg-web finding fails 5.2 (its ASFF
    // requirement): 1 of 5 passing, 8 open findings. The reference printed 6 controls and 16.7
    // because its normaliser also invented a control `ec2_sg_open_22-1` from a check id.
    expect(await cisAws()).toEqual([5, 1, 20.0, 8]);
    const control = ws
      .get('sample')
      .compliance.find((c) => c.framework === 'CIS-AWS' && c.control_id === '5.2');
    expect(control?.finding_ids).toContain(ws.get('sample').findings.at(-1)?.id);
  });

  it('refuses an unsupported tool before reading anything', async () => {
    const error = await callError(layer, 'ingest_reports', { reports: { nmap: ['x.xml'] } });
    expect(error).toMatchObject({
      // The reference named the tool in the text; here it is in the data only.
      text: 'Unsupported tool(s). Supported: prowler, scoutsuite, checkov, trivy',
      code: -32602,
      data: { unsupported: ['nmap'], supported: ['prowler', 'scoutsuite', 'checkov', 'trivy'] },
    });
  });

  it('reports a missing path in errors and changes nothing', async () => {
    const result = await call(layer, 'ingest_reports', { reports: { trivy: ['scans/missing.json'] } });
    expect(result).toEqual({
      dataset: 'sample',
      parsed: 0,
      per_path: [],
      errors: [
        {
          tool: 'trivy',
          path: 'scans/missing.json',
          error: `Report path does not exist: ${join(ws.allowedRoots[0]!, 'scans/missing.json')}`,
        },
      ],
      findings_before: 12,
      findings_after: 12,
      matched_to_assets: 0,
      normalised: true,
      deduplication: { merged: 0, reasons: [] },
      active: 'sample',
    });
  });

  it('reads OCSF into a new, inactive dataset (the reference refused OCSF; cloudg reads it)', async () => {
    const result = await call(layer, 'ingest_reports', {
      reports: { prowler: ['scans/prowler-ocsf.json'] },
      dataset: 'ocsf-test',
      new_dataset: true,
      activate: false,
    });
    expect(result).toEqual({
      dataset: 'ocsf-test',
      parsed: 1,
      per_path: [{ tool: 'prowler', path: 'scans/prowler-ocsf.json', findings: 1 }],
      errors: [],
      findings_before: 0,
      findings_after: 1,
      matched_to_assets: 0,
      normalised: true,
      deduplication: { merged: 0, reasons: [] },
      active: 'sample',
    });
    expect(ws.get('ocsf-test')).toMatchObject({ kind: 'report', source: 'ingest' });
    expect(ws.get('ocsf-test').compliance.map((c) => `${c.framework} ${c.control_id}`)).toEqual([
      'CIS-AWS 5.2',
      'PCI-DSS 1.3.1',
    ]);
  });
});

describe('arguments and errors', () => {
  it('accepts tool names in any case', async () => {
    const result = await call(layer, 'ingest_reports', {
      reports: { ' Prowler ': ['scans/prowler-asff.json'] },
    });
    expect(result.per_path).toEqual([{ tool: 'prowler', path: 'scans/prowler-asff.json', findings: 1 }]);
  });

  it('fails the whole call when one path is outside the allowed roots', async () => {
    const error = await callError(layer, 'ingest_reports', {
      reports: { prowler: ['scans/prowler-asff.json'], trivy: ['/etc/passwd'] },
    });
    expect(error.code).toBe(-31001);
    expect(ws.get('sample').findings).toHaveLength(12);
  });

  it('refuses a new dataset whose name is taken before parsing, unless replace is true', async () => {
    const args = { reports: { prowler: ['scans/prowler-asff.json'] }, dataset: 'sample', new_dataset: true };
    const error = await callError(layer, 'ingest_reports', args);
    expect(error).toMatchObject({ code: -32602, data: { existing: 'sample' } });
    const replaced = await call(layer, 'ingest_reports', { ...args, replace: true });
    expect(replaced).toMatchObject({
      dataset: 'sample',
      findings_before: 0,
      findings_after: 1,
      active: 'sample',
    });
    expect(ws.get('sample').assets).toEqual([]);
  });

  it('names a new dataset `ingested-reports` (made unique) when no name is given, and activates it', async () => {
    const first = await call(layer, 'ingest_reports', {
      reports: { prowler: ['scans/prowler-asff.json'] },
      new_dataset: true,
    });
    const second = await call(layer, 'ingest_reports', {
      reports: { prowler: ['scans/prowler-asff.json'] },
      new_dataset: true,
    });
    expect([first.dataset, first.active, second.dataset, second.active]).toEqual([
      'ingested-reports',
      'ingested-reports',
      'ingested-reports-2',
      'ingested-reports-2',
    ]);
  });

  it('fails on an unknown dataset with nothing read', async () => {
    const error = await callError(layer, 'ingest_reports', {
      reports: { prowler: ['scans/prowler-asff.json'] },
      dataset: 'nope',
    });
    expect(error.code).toBe(-32602);
  });

  it('appends the findings as parsed with normalise false', async () => {
    const args = { reports: { prowler: ['scans/prowler-asff.json', 'scans/prowler-asff.json'] } };
    const normalised = await call(layer, 'ingest_reports', args);
    expect(normalised).toMatchObject({
      parsed: 2,
      findings_after: 13,
      deduplication: { merged: 1, reasons: [{ reason: 'same_check', merged: 1 }] },
    });
    const raw = await call(layer, 'ingest_reports', { ...args, normalise: false });
    expect(raw).toMatchObject({ parsed: 2, findings_before: 13, findings_after: 15, normalised: false });
    expect(new Set(ws.get('sample').findings.map((f) => f.id)).size).toBe(15);
  });
});

describe('real scanner files', () => {
  it('reads every tool at once, reports the broken file and keeps the rest', async () => {
    const scans = join(estate.dir, 'real');
    await mkdir(join(scans, 'prowler'), { recursive: true });
    await mkdir(join(scans, 'trivy'), { recursive: true });
    await copyFile(join(corpus, 'prowler/v3-native-many.json'), join(scans, 'prowler/native.json'));
    await copyFile(join(corpus, 'prowler/v4.5-ocsf-many.ocsf.json'), join(scans, 'prowler/run.ocsf.json'));
    await writeFile(join(scans, 'prowler/broken.json'), '[{"CheckID": "x", "Status": "FA');
    await copyFile(join(corpus, 'trivy/k8s-cluster-legacy.json'), join(scans, 'trivy/k8s.json'));
    await copyFile(join(corpus, 'checkov/summary-only-clean.json'), join(scans, 'results_json.json'));
    const result = await call(layer, 'ingest_reports', {
      reports: {
        prowler: ['real/prowler'],
        trivy: ['real/trivy/k8s.json'],
        checkov: ['real/results_json.json'],
        scoutsuite: ['real/nothing-here.js'],
      },
      dataset: 'real',
      new_dataset: true,
    });
    expect(result).toMatchObject({
      dataset: 'real',
      parsed: 26,
      per_path: [
        { tool: 'prowler', path: 'real/prowler', findings: 6 },
        { tool: 'trivy', path: 'real/trivy/k8s.json', findings: 20 },
        { tool: 'checkov', path: 'real/results_json.json', findings: 0 },
      ],
      errors: [
        {
          tool: 'prowler',
          path: join('real/prowler', 'broken.json'),
          error: expect.stringContaining('not valid JSON'),
        },
        {
          tool: 'scoutsuite',
          path: 'real/nothing-here.js',
          error: expect.stringContaining('Report path does not exist'),
        },
      ],
      findings_after: 26,
    });
  });
});
