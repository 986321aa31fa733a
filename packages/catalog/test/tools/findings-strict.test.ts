import { describe, expect, it } from 'vitest';
import { profileLayer } from '../privacy-profiles/support.js';

/**
 * Findings name assets in their fields and in their text. Under `strict` every such reference is
 * a pseudonym, the finding ids and the vocabulary stay readable, and a pseudonym handed back
 * names the same asset. Under `standard` identifiers stay, secrets in evidence do not.
 */
describe('findings tools under strict', () => {
  it('pseudonymise resources, asset names and ARNs of findings, and names inside titles', async () => {
    const { layer } = await profileLayer('strict');
    const listed = await layer.callTool('list_findings', { limit: 500 });
    const reach = await layer.callTool('reachability_findings', { limit: 500 });
    const detail = await layer.callTool('get_finding', { finding_id: 'f-ssh-open' });
    for (const result of [listed, reach, detail]) expect(result.isError).toBe(false);
    const text = JSON.stringify([listed.structured, reach.structured, detail.structured]);
    for (const real of [
      'sg-admin',
      'jump-nsg',
      'public-api',
      'jump-vm',
      'prod-logs',
      '111111111111',
      'sg-0admin',
    ])
      expect(text, real).not.toContain(real);
    expect(text).toContain('f-ssh-open');
    expect(text).toContain('Unexpected internet-exposed resource: ');
    expect(detail.structured).toMatchObject({ severity: 'CRITICAL', source_tool: 'prowler' });
  });

  it('take a pseudonym back where the asset reference goes', async () => {
    const { layer } = await profileLayer('strict');
    const detail = (await layer.callTool('get_finding', { finding_id: 'f-ssh-open' })).structured as {
      asset_id: string;
    };
    expect(detail.asset_id).not.toBe('sg-admin');
    const onAsset = await layer.callTool('findings_for_asset', { ref: detail.asset_id });
    expect(onAsset.isError).toBe(false);
    expect(onAsset.structured).toMatchObject({ total: 1, items: [{ id: 'f-ssh-open' }] });
    const filtered = await layer.callTool('list_findings', { resource: detail.asset_id });
    expect(filtered.structured).toMatchObject({ total: 1 });
  });

  it('pseudonymise the reason of a suppression when it names an asset', async () => {
    const { layer } = await profileLayer('strict');
    await layer.callTool('suppress_findings', { finding_ids: ['f-ghost'], reason: 'prod-logs replaced it' });
    const detail = await layer.callTool('get_finding', { finding_id: 'f-ghost' });
    const reason = (detail.structured as { suppression_reason: string }).suppression_reason;
    expect(reason).toMatch(/replaced it$/);
    expect(reason).not.toContain('prod-logs');
  });
});

describe('findings tools under standard', () => {
  it('redact a secret in evidence and keep the identifiers', async () => {
    const { layer } = await profileLayer('standard');
    const dataset = layer.app.get('sample');
    const finding = dataset.findings.find((f) => f.id === 'f-bastion-imds');
    if (!finding) throw new Error('f-bastion-imds missing');
    finding.evidence = 'user data exports AWS_SECRET_ACCESS_KEY=Zq3v8Lm2Tx9Rk4Pw7Ny1Hb6Jd5Fs0Gc2Ve8Ua3Qt';
    dataset.touch();
    const detail = await layer.callTool('get_finding', { finding_id: 'f-bastion-imds' });
    const text = JSON.stringify(detail.structured);
    expect(text).not.toContain('Zq3v8Lm2Tx9Rk4Pw7Ny1Hb6Jd5Fs0Gc2Ve8Ua3Qt');
    expect(detail.structured).toMatchObject({ asset_name: 'bastion' });
  });
});
