import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { complianceLayer } from './compliance-support.js';
import { call, readJson } from './support.js';

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await complianceLayer());
});

describe('compliance resources', () => {
  it('cloudg://compliance is the summary of every framework', async () => {
    expect(await readJson(layer, 'cloudg://compliance')).toEqual(await call(layer, 'compliance_summary'));
  });

  it('cloudg://compliance/CIS-AWS reproduces the posture and the failing controls, worst first', async () => {
    expect(await readJson(layer, 'cloudg://compliance/CIS-AWS')).toEqual({
      dataset: 'sample',
      posture: [
        {
          framework: 'CIS-AWS',
          controls_evaluated: 4,
          controls_failing: 3,
          controls_passing: 1,
          controls_other: 0,
          pass_rate: 25.0,
          open_findings: 6,
          severity_breakdown: { CRITICAL: 1, HIGH: 3, MEDIUM: 2 },
          affected_assets: 5,
          uri: 'cloudg://compliance/CIS-AWS',
        },
      ],
      failing_controls: [
        {
          framework: 'CIS-AWS',
          control_id: '5.2',
          control_title: 'No SG allows 0.0.0.0/0 to admin ports',
          open_findings: 1,
          max_severity: 'CRITICAL',
        },
        {
          framework: 'CIS-AWS',
          control_id: '1.16',
          control_title: 'IAM trust least privilege',
          open_findings: 1,
          max_severity: 'HIGH',
        },
        {
          framework: 'CIS-AWS',
          control_id: '2.1.4',
          control_title: 'S3 Block Public Access',
          open_findings: 1,
          max_severity: 'HIGH',
        },
      ],
    });
  });

  it('prefers an exact name and falls back to every name containing it', async () => {
    const cis = await readJson(layer, 'cloudg://compliance/cis');
    expect((cis.posture as { framework: string }[]).map((p) => p.framework)).toEqual([
      'CIS-AWS',
      'CIS-Azure',
      'CIS-GCP',
    ]);
    const pci = await readJson(layer, 'cloudg://compliance/pci-dss');
    expect((pci.posture as { framework: string }[]).map((p) => p.framework)).toEqual(['PCI-DSS']);
  });

  it('resolves the links compliance_summary emits', async () => {
    const result = await layer.callTool('compliance_summary', {});
    for (const link of result.content.filter((c) => c.type === 'resource_link')) {
      const uri = (link as { uri: string }).uri;
      expect(await readJson(layer, uri)).toMatchObject({ dataset: 'sample' });
    }
  });

  it('fails the read with -32602 for a framework the dataset does not name', async () => {
    await expect(layer.readResource('cloudg://compliance/FEDRAMP')).rejects.toMatchObject({
      code: -32602,
      message:
        'No compliance framework of the active dataset matches the name. list_frameworks and compliance_summary show the names.',
      data: { value: 'FEDRAMP', known: ['CIS-AWS', 'CIS-Azure', 'CIS-GCP', 'NIST-800-53', 'PCI-DSS'] },
    });
  });
});

describe('framework completion', () => {
  const ref = { type: 'ref/resource', uri: 'cloudg://compliance/{framework}' } as const;

  it('completes the frameworks of the dataset containing the input', async () => {
    const out = await layer.complete(ref, { name: 'framework', value: 'cis' });
    expect(out.values).toEqual(['CIS-AWS', 'CIS-Azure', 'CIS-GCP']);
  });

  it('completes the ruleset frameworks when nothing is loaded', async () => {
    const r = (await complianceLayer()).layer;
    await call(r, 'unload_dataset', { name: 'sample' });
    const out = await r.complete(ref, { name: 'framework', value: 'hipaa' });
    expect(out.values).toEqual(['HIPAA', 'HIPAA-AWS', 'HIPAA-AZURE', 'HIPAA-GCP']);
  });
});
