import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import { FindingSchema } from '../model/finding.js';
import { sampleEstateDir } from '../sample-estate/paths.js';
import { loadPath } from './load.js';
import { dedupeFindings, mergeComplianceResults, normaliseFindingSet } from './normalise.js';

describe('normalising a dataset with ingested findings', () => {
  it('adds the ASFF finding for sg-web and merges its control into the existing CIS-AWS 5.2 result', async () => {
    const ds = (await sampleWorkspace()).get();
    const ingested = await loadPath(join(sampleEstateDir(), 'scans', 'prowler-asff.json'));
    const added = ingested.data.findings ?? [];
    const out = normaliseFindingSet(ds.findings, ds.compliance, added);
    expect(out.findings).toHaveLength(13);
    expect(out.findings.find((f) => f.id === 'f-versioning')?.is_suppressed).toBe(true);
    expect(out.compliance).toHaveLength(8);
    const cis52 = out.compliance.find((c) => c.framework === 'CIS-AWS' && c.control_id === '5.2');
    expect(cis52).toMatchObject({
      id: 'c-cis-5.2',
      control_title: 'No SG allows 0.0.0.0/0 to admin ports',
      status: 'FAIL',
      finding_ids: [added[0]?.id, 'f-ssh-open'],
    });
    expect(out.compliance.find((c) => c.id === 'c-cis-3.1')).toMatchObject({
      status: 'PASS',
      finding_ids: [],
    });
  });

  it('changes nothing when run again, and drops a control whose findings are all gone', async () => {
    const ds = (await sampleWorkspace()).get();
    const once = normaliseFindingSet(ds.findings, ds.compliance);
    expect(once.findings.map((f) => f.id)).toEqual(ds.findings.map((f) => f.id));
    expect(once.compliance).toEqual(ds.compliance);
    const withoutBackup = normaliseFindingSet(
      ds.findings.filter((f) => f.id !== 'f-db-backup'),
      ds.compliance,
    );
    expect(withoutBackup.compliance.map((c) => c.id)).not.toContain('c-nist-cp9');
    expect(withoutBackup.compliance).toHaveLength(7);
  });
});

describe('deduplication leaves the findings it was given as they were', () => {
  it('merges controls and scanners into its own copy, not into the original finding', () => {
    const on = { resource_id: 'sg-1', account_id: '1', region: 'eu-west-1', title: 'Port 22 open' };
    const first = FindingSchema.parse({
      ...on,
      id: 'a',
      source_tool: 'prowler',
      compliance_controls: [{ framework: 'CIS-AWS', control_id: '5.2' }],
      also_reported_by: ['checkov'],
    });
    const second = FindingSchema.parse({
      ...on,
      id: 'b',
      source_tool: 'scoutsuite',
      compliance_controls: [{ framework: 'PCI-DSS', control_id: '1.2.1' }],
    });
    const before = structuredClone([first, second]);
    const [kept] = dedupeFindings([first, second]);
    expect(kept?.compliance_controls).toHaveLength(2);
    expect(kept?.also_reported_by).toEqual(['checkov', 'scoutsuite']);
    expect([first, second]).toEqual(before);
  });
});

describe('merging compliance results after normalisation', () => {
  const cis = { framework: 'CIS-AWS', control_id: '5.2' };
  const pci = { framework: 'PCI-DSS', control_id: '1.2.1' };
  const fail = (id: string, controls: object[], extra = {}) =>
    FindingSchema.parse({ id, title: id, source_tool: 'prowler', compliance_controls: controls, ...extra });
  const result = (id: string, control: typeof cis, status: string, finding_ids: string[]) => ({
    id,
    ...control,
    control_title: `title of ${id}`,
    status,
    finding_ids,
  });

  it('fails an evaluated control with its findings and the surviving old ones, titles new controls, keeps a PASS result and drops one whose findings are gone', () => {
    const existing = [
      result('c-cis', cis, 'PASS', ['gone', 'old']),
      result('c-pass', { framework: 'SOC2', control_id: 'CC6.1' }, 'PASS', []),
      result('c-gone', { framework: 'NIST', control_id: 'CP-9' }, 'FAIL', ['gone']),
    ];
    const findings = [
      fail('old', []),
      fail('n1', [cis, pci]),
      fail('n2', [pci], { is_suppressed: true }),
      fail('n3', [cis]),
    ];
    const out = mergeComplianceResults(existing, findings, (fw, id) => `${fw} ${id} from the rulesets`);
    expect(out).toEqual([
      result('c-cis', cis, 'FAIL', ['n1', 'n3', 'old']),
      result('c-pass', { framework: 'SOC2', control_id: 'CC6.1' }, 'PASS', []),
      {
        id: 'PCI-DSS/1.2.1',
        ...pci,
        control_title: 'PCI-DSS 1.2.1 from the rulesets',
        status: 'FAIL',
        finding_ids: ['n1', 'n2'],
      },
    ]);
    expect(existing[0]?.finding_ids).toEqual(['gone', 'old']);
  });
});
