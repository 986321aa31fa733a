/**
 * The old single-chain synthetic inventory: `assets` assets spread evenly over `accounts`
 * accounts and three regions, a chain of edges, tags with an owner e-mail, a private IP on every
 * asset, and a findings report with one open finding on every 25th asset.
 *
 * Superseded by the realistic generated estate in `./estate` (see README.md here), which the
 * load, tools and graph benchmarks use; it stays only while bench/findings.ts still imports it.
 */

export interface SyntheticOptions {
  assets: number;
  accounts: number;
}

export const TYPES = [
  'EC2',
  'S3_BUCKET',
  'SECURITY_GROUP',
  'IAM_ROLE',
  'LAMBDA_FUNCTION',
  'RDS_INSTANCE',
  'SUBNET',
];
export const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2'];

/** An inventory map whose accounts each hold ASSETS / ACCOUNTS assets, with edges and findings. */
export function inventoryMap({
  assets: ASSETS,
  accounts: ACCOUNTS,
}: SyntheticOptions): Record<string, unknown> {
  const assets = [];
  const edges = [];
  for (let i = 0; i < ASSETS; i += 1) {
    const account = String(100000000000 + (i % ACCOUNTS));
    const type = TYPES[i % TYPES.length] ?? 'EC2';
    const region = REGIONS[i % REGIONS.length] ?? 'us-east-1';
    const arn = `arn:aws:${type === 'S3_BUCKET' ? 's3' : 'ec2'}:${region}:${account}:${type.toLowerCase()}/res-${i}`;
    assets.push({
      id: `asset-${i}`,
      arn,
      name: `res-${i}`,
      asset_type: type,
      provider: 'AWS',
      region,
      account_id: account,
      tags: { env: i % 2 ? 'prod' : 'dev', owner: `team-${i % 17}`, contact: `ops${i % 50}@example.com` },
      metadata: { index: i, private_ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      collected_at: '2026-01-15T12:00:00+00:00',
      is_internet_exposed: i % 97 === 0,
      display_id: arn,
    });
    if (i > 0) {
      edges.push({
        id: `edge-${i}`,
        source_id: `asset-${i}`,
        target_id: `asset-${i - 1}`,
        edge_type: 'REFERENCES',
      });
    }
  }
  return {
    summary: {},
    providers: ['aws'],
    regions: { aws: REGIONS },
    assets,
    edges,
    unresolved_references: [],
  };
}

/** A cloudg findings report beside the map: one open finding on every 25th asset. */
export function findingsReport({ assets: ASSETS }: SyntheticOptions): Record<string, unknown> {
  const findings = [];
  for (let i = 0; i < ASSETS; i += 25) {
    findings.push({
      id: `f-${i}`,
      title: `Finding ${i}`,
      severity: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'][i % 5],
      source_tool: 'prowler',
      resource_id: `asset-${i}`,
      detected_at: '2026-01-15T12:00:00+00:00',
    });
  }
  return { metadata: {}, summary: {}, findings };
}
