import { describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import { topRisks } from './top-risks.js';

describe('topRisks', () => {
  it('stops when its signal has fired', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(() => topRisks(dataset, { top: 10, minSeverity: null, signal: controller.signal })).toThrow(
      'cancelled',
    );
  });

  it('ignores findings on no known asset', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const { items } = topRisks(dataset, { top: 100, minSeverity: 'MEDIUM' });
    const findings = items.flatMap((i) => i.top_findings.map((f) => f.id));
    expect(findings).not.toContain('f-ghost');
    expect(findings).toContain('f-db-backup');
  });
});
