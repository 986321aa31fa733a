import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { complianceLayer } from './compliance-support.js';
import { call } from './support.js';

let layer: Layer<Workspace>;
let ws: Workspace;
beforeEach(async () => {
  ({ layer, ws } = await complianceLayer());
});

type Posture = {
  framework: string;
  controls_evaluated: number;
  pass_rate: number | null;
  open_findings: number;
};

async function passRates(): Promise<[string, number, number | null, number][]> {
  const out = await call(layer, 'compliance_summary');
  return (out.frameworks as Posture[]).map((f) => [
    f.framework,
    f.controls_evaluated,
    f.pass_rate,
    f.open_findings,
  ]);
}

describe('normalise_findings', () => {
  it('maps the sample findings to controls, then changes nothing on a second run', async () => {
    expect(await call(layer, 'normalise_findings')).toEqual({
      dataset: 'sample',
      findings_before: 12,
      findings_after: 12,
      compliance_results_before: 8,
      compliance_results_after: 14,
      frameworks: ['CIS-AWS', 'CIS-Azure', 'CIS-GCP', 'HIPAA', 'ISO-27001', 'NIST-800-53', 'PCI-DSS'],
      merged: { duplicates: 0, equivalent_checks: 0 },
      rescored: 0,
    });
    expect(await call(layer, 'normalise_findings')).toMatchObject({
      findings_before: 12,
      findings_after: 12,
      compliance_results_before: 14,
      compliance_results_after: 14,
    });
  });

  it('round trip: the sample findings -> normalise -> compliance_summary gives the expected pass rates', async () => {
    // Before: the fixture's own results (CIS-AWS 1 of 4 passing).
    expect(await passRates()).toEqual([
      ['CIS-AWS', 4, 25.0, 6],
      ['PCI-DSS', 1, 0.0, 3],
      ['NIST-800-53', 1, 0.0, 2],
      ['CIS-Azure', 1, 0.0, 1],
      ['CIS-GCP', 1, 0.0, 1],
    ]);
    await call(layer, 'normalise_findings');
    // After: CIS-AWS gains the control of its findings that no result listed (bastion, RDS
    // backup, the ghost bucket, the suppressed versioning finding) and of the VPC flow-log
    // finding its pattern matched: 1 of 5 passing. The CVE's PCI-DSS tag becomes a control of
    // its own; nothing is counted twice for a finding a fixture result already lists.
    expect(await passRates()).toEqual([
      ['CIS-AWS', 5, 20.0, 7],
      ['PCI-DSS', 3, 0.0, 4],
      ['NIST-800-53', 2, 0.0, 3],
      ['CIS-Azure', 1, 0.0, 1],
      ['CIS-GCP', 1, 0.0, 1],
      ['HIPAA', 1, 0.0, 1],
      ['ISO-27001', 1, 0.0, 1],
    ]);
    const controls = await call(layer, 'list_controls', { framework: 'CIS-AWS', limit: 10 });
    expect((controls.items as { control_id: string }[]).map((c) => c.control_id)).toEqual([
      '5.2',
      'CIS-AWS-aggregate',
      '1.16',
      '2.1.4',
      '3.1',
    ]);
    expect((controls.items as Record<string, unknown>[])[1]).toEqual({
      framework: 'CIS-AWS',
      control_id: 'CIS-AWS-aggregate',
      control_title: 'CIS-AWS: findings without a specific control',
      status: 'FAIL',
      findings: 5,
      open_findings: 4,
      max_severity: 'HIGH',
    });
  });

  it('keeps suppressions: a suppressed finding stays suppressed and out of the open counts', async () => {
    await call(layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted last week' });
    await call(layer, 'normalise_findings');
    const ghost = ws.get().findings.find((f) => f.id === 'f-ghost');
    expect(ghost?.is_suppressed).toBe(true);
    expect((await passRates())[0]).toEqual(['CIS-AWS', 5, 20.0, 6]);
  });

  it('maps a scanner report loaded on its own (Prowler JSON Lines)', async () => {
    await call(layer, 'load_dataset', { path: 'scans/prowler-asff.jsonl', name: 'prowler' });
    expect(await call(layer, 'normalise_findings', { dataset: 'prowler' })).toMatchObject({
      findings_before: 6,
      findings_after: 6,
      compliance_results_before: 4,
      compliance_results_after: 10,
    });
    const out = await call(layer, 'compliance_summary', { dataset: 'prowler', framework: 'CIS-AWS' });
    expect(out.frameworks).toMatchObject([
      { framework: 'CIS-AWS', controls_evaluated: 2, controls_failing: 2, pass_rate: 0.0, open_findings: 2 },
    ]);
  });

  it('stops on a cancelled call and leaves the dataset as it was', async () => {
    const before = ws.get().compliance.length;
    const version = ws.get().version;
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the client'));
    const result = await layer.callTool('normalise_findings', {}, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(ws.get().compliance).toHaveLength(before);
    expect(ws.get().version).toBe(version);
  });

  it('refuses an unknown dataset', async () => {
    const result = await layer.callTool('normalise_findings', { dataset: 'nope' });
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe(-32602);
  });
});
