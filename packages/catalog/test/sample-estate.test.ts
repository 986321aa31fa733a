import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEstateDir } from '../src/index.js';
import { readSampleEstateFacts, writeSampleEstate } from '../src/sample-estate/generate.js';
import { sampleEstateFactsPath } from '../src/sample-estate/paths.js';

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('the committed sample estate', () => {
  let fresh: string;
  beforeAll(async () => {
    fresh = await mkdtemp(join(tmpdir(), 'cloudg-estate-'));
    await writeSampleEstate(await readSampleEstateFacts(sampleEstateFactsPath()), fresh);
  });
  afterAll(async () => {
    await rm(fresh, { recursive: true, force: true });
  });

  it('is exactly what the generator writes from the facts (regenerate with scripts/generate-sample-estate.mjs)', async () => {
    const committed = await listFiles(sampleEstateDir());
    const regenerated = await listFiles(fresh);
    expect(committed).toEqual(regenerated);
    for (const rel of regenerated) {
      const [a, b] = await Promise.all([
        readFile(join(sampleEstateDir(), rel), 'utf8'),
        readFile(join(fresh, rel), 'utf8'),
      ]);
      expect(a, rel).toBe(b);
    }
  });

  it('holds the files the reference examples load', async () => {
    expect(await listFiles(fresh)).toEqual(
      expect.arrayContaining([
        'inventory/inventory-map.json',
        'inventory/findings.json',
        'inventory/inventory-organization.json',
        'report/findings.json',
        'scans/prowler-asff.json',
        'scans/prowler-ocsf.json',
        'after/inventory-map.json',
      ]),
    );
  });

  it('writes inventory-map.json in the section 14 format with the section 9 summary', async () => {
    const map = JSON.parse(await readFile(join(fresh, 'inventory/inventory-map.json'), 'utf8'));
    expect(Object.keys(map)).toEqual([
      'summary',
      'providers',
      'regions',
      'assets',
      'edges',
      'unresolved_references',
    ]);
    expect(map.assets).toHaveLength(44);
    expect(map.edges).toHaveLength(56);
    expect(map.providers).toEqual(['aws', 'azure', 'gcp']);
    expect(map.summary).toMatchObject({
      total_assets: 44,
      total_edges: 56,
      internet_exposed: 6,
      accounts: 5,
      external_accounts: 1,
      security_service_gaps: 1,
      unresolved_references: 1,
      organization: {
        id: 'o-sample',
        accounts: 2,
        ous: 1,
        control_tower: true,
        governed_regions: ['us-east-1', 'eu-west-1'],
      },
    });
    const web1 = map.assets.find((a: { id: string }) => a.id === 'web-1');
    expect(Object.keys(web1)).toEqual([
      'id',
      'arn',
      'name',
      'asset_type',
      'provider',
      'region',
      'account_id',
      'tags',
      'metadata',
      'collected_at',
      'is_internet_exposed',
      'display_id',
    ]);
    expect(web1.provider).toBe('AWS');
    expect(web1.display_id).toBe('arn:aws:ec2:us-east-1:111111111111:instance/i-0web1');
    const rule = map.edges.find((e: { id: string }) => e.id === 'e-inet-sgadmin');
    expect(rule).toEqual({
      id: 'e-inet-sgadmin',
      source_id: '0.0.0.0/0',
      target_id: 'sg-admin',
      edge_type: 'SECURITY_GROUP_RULE',
      ports: [22],
      port_range: '22',
      protocol: 'TCP',
      cidr: '0.0.0.0/0',
      direction: 'ingress',
      description: null,
      relationship: null,
      properties: {},
    });
  });

  it('writes the organization file with every to_dict() key', async () => {
    const org = JSON.parse(await readFile(join(fresh, 'inventory/inventory-organization.json'), 'utf8'));
    expect(Object.keys(org)).toEqual([
      'organization_id',
      'organization_arn',
      'management_account_id',
      'caller_account_id',
      'feature_set',
      'roots',
      'ous',
      'accounts',
      'policies',
      'delegated_administrators',
      'enabled_services',
      'landing_zone',
      'governed_regions',
      'shared_accounts',
      'enabled_controls',
      'enabled_baselines',
      'control_tower_region',
      'errors',
      'control_tower_enabled',
    ]);
    expect(org.organization_id).toBe('o-sample');
    expect(Object.keys(org.accounts)).toEqual(['111111111111', '222222222222']);
  });
});
