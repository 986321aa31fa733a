/**
 * The synthetic bulk payload of the reference's section 16.1: 50,000 EC2 assets across 100
 * accounts and three regions, private IPs and EC2 DNS names on every asset, a public IP on one
 * in seven, a user_data password on one in fifty, and tags with an owner e-mail. Deterministic.
 */

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2'];
const TEAMS = ['payments', 'platform', 'search', 'identity', 'data', 'edge', 'billing', 'growth'];
const TYPES = ['t3.micro', 't3.large', 'm5.xlarge', 'c6g.2xlarge', 'r6i.large'];

export function buildPayload(count = 50_000) {
  const rand = rng(42);
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const accounts = Array.from({ length: 100 }, (_, i) =>
    String(200000000000 + i * 7919 + 13).padStart(12, '1'),
  );
  const assets = [];
  for (let i = 0; i < count; i++) {
    const account = accounts[i % accounts.length];
    const region = REGIONS[i % REGIONS.length];
    const team = TEAMS[i % TEAMS.length];
    const instanceId = `i-0${hex(16)}`;
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const dns = `ip-${ip.replaceAll('.', '-')}.${region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`}`;
    const metadata = {
      instance_type: TYPES[i % TYPES.length],
      state: 'running',
      private_ip: ip,
      private_dns_name: dns,
      vpc_id: `vpc-${hex(8)}`,
      subnet_id: `subnet-${hex(8)}`,
      image_id: `ami-${hex(17)}`,
      launch_time: '2024-05-01T12:30:00Z',
      imds_v2: i % 3 !== 0,
      security_groups: [`sg-${hex(8)}`, `sg-${hex(8)}`],
    };
    if (i % 7 === 0) {
      metadata.public_ip = `54.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`;
      metadata.public_dns_name = `ec2-${metadata.public_ip.replaceAll('.', '-')}.compute-1.amazonaws.com`;
    }
    if (i % 50 === 0)
      metadata.user_data = `#!/bin/bash\nexport DB_PASSWORD=hunter2-${hex(6)}\n/opt/app/start`;
    assets.push({
      id: uuid(),
      name: `${team}-web-${i}`,
      asset_type: 'EC2',
      provider: 'aws',
      account_id: account,
      region,
      arn: `arn:aws:ec2:${region}:${account}:instance/${instanceId}`,
      tags: {
        Name: `${team}-web-${i}`,
        Owner: `${team}-owner${i % 40}@example.com`,
        env: i % 4 === 0 ? 'prod' : 'dev',
        Team: team,
      },
      metadata,
    });
  }
  return { dataset: 'bulk', total: assets.length, assets };
}
