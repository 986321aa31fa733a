import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import { sampleEstateDir } from '../sample-estate/paths.js';
import { loadPath } from './load.js';
import { normaliseFindingSet } from './normalise.js';

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
