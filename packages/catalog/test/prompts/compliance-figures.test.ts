import { describe, expect, it } from 'vitest';
import { contextOf, embeddedOf, promptLayer } from './support.js';

/**
 * The prompts show the posture the compliance tools compute. A NOT_APPLICABLE control and a
 * finding listed by a control without carrying the framework tag are where a separate
 * computation (pass rate over passing + failing, findings by tag only) disagreed.
 */
async function layerWithEdgeCases() {
  const { layer, ws } = await promptLayer();
  for (const name of ['sample', 'baseline']) {
    const ds = ws.get(name);
    ds.compliance = [
      ...ds.compliance,
      {
        id: 'c-cis-na',
        framework: 'CIS-AWS',
        control_id: '9.9',
        control_title: 'Not applicable here',
        status: 'NOT_APPLICABLE',
        finding_ids: [],
      },
    ];
    const pci = ds.compliance.find((c) => c.framework === 'PCI-DSS' && c.status === 'FAIL');
    if (pci) pci.finding_ids = [...pci.finding_ids, 'f-db-backup'];
    ds.touch();
  }
  return { layer, ws };
}

describe('compliance figures in the prompts', () => {
  it('security_posture_review shows compliance_summary rows', async () => {
    const { layer } = await layerWithEdgeCases();
    const summary = (await layer.callTool('compliance_summary', {})).structured as { frameworks: unknown[] };
    const context = contextOf(await layer.getPrompt('security_posture_review', {}));
    expect(context.compliance).toEqual(summary.frameworks.slice(0, 5));
    expect(context.compliance).toContainEqual(
      expect.objectContaining({
        framework: 'CIS-AWS',
        controls_evaluated: 5,
        controls_other: 1,
        pass_rate: 20,
      }),
    );
  });

  it('compliance_gap_analysis on a dataset that is not active carries what cloudg://compliance/{framework} serves', async () => {
    const { layer } = await layerWithEdgeCases();
    const served = await layer.getPrompt('compliance_gap_analysis', { framework: 'PCI-DSS' });
    const context = contextOf(
      await layer.getPrompt('compliance_gap_analysis', { framework: 'PCI-DSS', dataset: 'baseline' }),
    );
    const { dataset: _name, ...fromResource } = embeddedOf(served).data;
    const { dataset, ...carried } = context.framework_detail as Record<string, unknown>;
    expect(dataset).toBe('baseline');
    expect(carried).toEqual(fromResource);
    const summary = (await layer.callTool('compliance_summary', { framework: 'PCI-DSS' })).structured as {
      frameworks: unknown[];
    };
    expect(carried.posture).toEqual(summary.frameworks);
  });

  it('compliance_gap_analysis without a known framework shows every compliance_summary row', async () => {
    const { layer } = await layerWithEdgeCases();
    const summary = (await layer.callTool('compliance_summary', {})).structured as { frameworks: unknown[] };
    const context = contextOf(await layer.getPrompt('compliance_gap_analysis', { framework: 'HIPAA' }));
    expect(context.posture).toEqual(summary.frameworks);
  });

  it('completes the framework argument as the compliance resource does, from the rulesets when the dataset names none', async () => {
    const { layer, ws } = await layerWithEdgeCases();
    const ref = { type: 'ref/prompt' as const, name: 'compliance_gap_analysis' };
    const fromDataset = await layer.complete(ref, { name: 'framework', value: 'cis' });
    expect(fromDataset.values).toEqual(['CIS-AWS', 'CIS-Azure', 'CIS-GCP']);
    ws.get('sample').compliance = [];
    for (const f of ws.get('sample').findings) f.compliance_frameworks = [];
    ws.get('sample').touch();
    const fromRulesets = await layer.complete(ref, { name: 'framework', value: 'hipaa' });
    expect(fromRulesets.values.length).toBeGreaterThan(0);
  });
});
