import { describe, expect, it } from 'vitest';
import { Dataset } from '../dataset/dataset.js';
import { FindingSchema } from '../model/finding.js';
import { summariseFindings } from './summary.js';

describe('summariseFindings', () => {
  it('lists groups largest first and groups of one size by key', () => {
    const tools = ['trivy', 'checkov', 'prowler', 'zap', 'checkov', 'Trivy', 'aqua', 'prowler'];
    const dataset = new Dataset({
      name: 'ties',
      kind: 'report',
      source: 'test',
      findings: tools.map((source_tool, i) =>
        FindingSchema.parse({ id: `f-${i}`, title: 't', severity: 'HIGH', source_tool }),
      ),
    });
    const { groups } = summariseFindings(dataset, {
      groupBy: 'source_tool',
      includeSuppressed: false,
      top: 50,
    });
    expect(Object.keys(groups)).toEqual(['checkov', 'prowler', 'Trivy', 'aqua', 'trivy', 'zap']);
  });
});
