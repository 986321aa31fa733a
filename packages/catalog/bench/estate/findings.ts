/**
 * About two findings per asset, split between the four scanners (Prowler 40 %, ScoutSuite,
 * Checkov and Trivy 20 % each), each on an asset its check applies to. Every finding is kept
 * twice: as the data model's Finding, filled the way cloudg's parser of that scanner fills it
 * (what `findings.json` holds), and as the facts the scanner's native report is rendered from.
 * A check is used at most once per asset, and titles differ between scanners, so loading the
 * native reports neither merges nor loses any of them.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import type { Finding } from '../../src/model/finding.js';
import { assetTypeInfo } from '../../src/tools/meta/vocabulary/asset-types.js';
import {
  type Check,
  checkIndex,
  checkRequirement,
  type Scanner,
  VULNERABILITIES,
  type Vulnerability,
} from './checks.js';
import type { Cloud } from './clouds.js';
import type { Rng } from './random.js';

export interface PlannedFinding {
  scanner: Scanner;
  asset: CloudAsset;
  check: Check | null;
  vuln: Vulnerability | null;
  /** First seen, ISO 8601. */
  observed: string;
  /** ScoutSuite: the flagged item's dotted path. */
  item: string | null;
  /** Checkov: where the resource is declared. */
  iac: IacLocation | null;
  finding: Finding;
}

export interface IacLocation {
  /** Checkov framework: `terraform` or `kubernetes`. */
  framework: 'terraform' | 'kubernetes';
  /** `aws_s3_bucket.<name>`, `Deployment.<namespace>.<name>`. */
  address: string;
  file: string;
  lines: [number, number];
}

/** Where a resource is declared as code: a Terraform module per account, manifests per cluster. */
function iacLocation(asset: CloudAsset, rng: Rng): IacLocation {
  const start = rng.int(1, 400);
  const lines: [number, number] = [start, start + rng.int(8, 40)];
  if (asset.asset_type === 'K8S_WORKLOAD') {
    const namespace = asset.arn?.split('/').slice(-3, -2)[0] ?? 'default';
    return {
      framework: 'kubernetes',
      address: `Deployment.${namespace.replace(/\./g, '-')}.${asset.name}`,
      file: `/k8s/${asset.name}.yaml`,
      lines,
    };
  }
  const tfType = assetTypeInfo(asset.asset_type)?.terraform_type ?? asset.asset_type.toLowerCase();
  const module = asset.asset_type.toLowerCase().split('_')[0] ?? 'main';
  return {
    framework: 'terraform',
    address: `${tfType}.${asset.name}`,
    file: `/${asset.provider.toLowerCase()}/${asset.account_id ?? 'global'}/${module}.tf`,
    lines,
  };
}

/** Rule sources that stand for the whole internet (as the reachability walk reads them). */
const INTERNET: ReadonlySet<string> = new Set(['0.0.0.0/0', '::/0', 'Internet', 'Any', '*']);

/** Room for the checks of one asset type in a pair number (no type has more than 63). */
const PAIR = 64;

const MACHINES: ReadonlySet<string> = new Set(['EC2', 'VIRTUAL_MACHINE', 'GCE_INSTANCE']);

export const SCANNER_SHARE: Readonly<Record<Scanner, number>> = {
  prowler: 0.4,
  scoutsuite: 0.2,
  checkov: 0.2,
  trivy: 0.2,
};

/** The day the scans ran; findings were first seen up to 180 days before. */
const SCAN_DAY = Date.UTC(2026, 0, 15, 12, 0, 0);

const CIS: Record<Cloud, string> = { AWS: 'CIS-AWS', AZURE: 'CIS-Azure', GCP: 'CIS-GCP' };

/** Canonical control references of a check, as the loaders name frameworks. */
export function controlRefs(check: Check): { framework: string; control_id: string }[] {
  const out: { framework: string; control_id: string }[] = [];
  if (check.controls.cis) out.push({ framework: CIS[check.cloud], control_id: check.controls.cis });
  if (check.controls.pci) out.push({ framework: 'PCI-DSS', control_id: check.controls.pci });
  if (check.controls.nist) out.push({ framework: 'NIST-800-53', control_id: check.controls.nist });
  return out;
}

function base(
  id: string,
  tool: Scanner,
  fields: Partial<Finding> & Pick<Finding, 'title' | 'severity'>,
): Finding {
  return {
    id,
    description: fields.title,
    source_tool: tool,
    resource_id: null,
    resource_arn: null,
    resource_type: null,
    region: null,
    account_id: null,
    compliance_frameworks: [],
    is_suppressed: false,
    suppression_reason: null,
    cvss_score: null,
    detected_at: null,
    evidence: null,
    remediation: null,
    source_finding_id: null,
    ...fields,
  };
}

/** The scanned target Trivy names in each result: the OS of a machine, the app directory of an image. */
export function trivyTarget(asset: CloudAsset): string {
  return asset.asset_type === 'CONTAINER_REGISTRY' ? 'opt/app' : `${asset.name} (ubuntu 22.04)`;
}

/** The resource fields Prowler's OCSF parser takes from `resources[0]`: ARN when it is one, else the name. */
function prowlerResource(asset: CloudAsset): Pick<Finding, 'resource_id' | 'resource_arn'> {
  const uid = asset.arn ?? asset.id;
  return uid.startsWith('arn:')
    ? { resource_id: uid, resource_arn: uid }
    : { resource_id: asset.name, resource_arn: null };
}

/** Where assets sit: the VPC name of each asset placed in a subnet (ScoutSuite paths name it). */
function vpcOfAssets(assets: readonly CloudAsset[], edges: readonly NetworkEdge[]): Map<string, string> {
  const networkName = new Map<string, string>();
  for (const a of assets) if (a.asset_type === 'VPC') networkName.set(a.id, a.name);
  const subnetVpc = new Map<string, string>();
  for (const e of edges) {
    if (e.relationship !== 'VPC_CONTAINS_SUBNET') continue;
    const name = networkName.get(e.source_id);
    if (name !== undefined) subnetVpc.set(e.target_id, name);
  }
  const out = new Map<string, string>();
  for (const e of edges) {
    if (e.edge_type !== 'CONTAINS') continue;
    const name = subnetVpc.get(e.source_id);
    if (name !== undefined) out.set(e.target_id, name);
  }
  return out;
}

/** `k` distinct items of `items`, uniformly (a partial Fisher-Yates shuffle; `items` is reordered). */
function sample<T>(rng: Rng, items: T[], k: number): T[] {
  const n = Math.min(k, items.length);
  for (let i = 0; i < n; i += 1) {
    const j = i + Math.floor(rng.next() * (items.length - i));
    const t = items[i] as T;
    items[i] = items[j] as T;
    items[j] = t;
  }
  return items.slice(0, n);
}

export function planFindings(
  rng: Rng,
  assets: readonly CloudAsset[],
  edges: readonly NetworkEdge[],
  total: number,
): PlannedFinding[] {
  const out: PlannedFinding[] = [];
  const vpcOf = vpcOfAssets(assets, edges);
  const days = Array.from({ length: 181 }, (_, n) =>
    new Date(SCAN_DAY - n * 86_400_000).toISOString().replace('.000Z', 'Z'),
  );
  const day = (n: number) => days[n] ?? (days[0] as string);
  // Each scanner draws its share from every (asset, check) pair it could report, without
  // repeats. A small estate may hold fewer pairs than a share asks for; the rest then goes to
  // the scanners with pairs to spare, so the total is what was asked whenever it can be.
  const osVulns = VULNERABILITIES.filter((v) => v.kind === 'os');
  const langVulns = VULNERABILITIES.filter((v) => v.kind === 'lang');
  // Not every machine is scanned, and a scanned one has a handful of CVEs or a dozen: Trivy's
  // share lands on a sample of about one artifact per ten of its findings.
  const trivyShare = Math.round(total * SCANNER_SHARE.trivy);
  const scannable = assets.filter((a) => a.asset_type === 'CONTAINER_REGISTRY' || MACHINES.has(a.asset_type));
  const scanned = sample(rng, scannable, Math.max(1, Math.ceil(trivyShare / 10)));
  // A pair is one number, `asset position * 64 + check position`: a few hundred thousand
  // candidate pairs as tuples would cost more in garbage collection than everything else here.
  const vulnsOf = (a: CloudAsset) => (a.asset_type === 'CONTAINER_REGISTRY' ? langVulns : osVulns);
  const trivyPairs: number[] = [];
  scanned.forEach((a, i) => {
    for (let k = 0; k < vulnsOf(a).length; k += 1) trivyPairs.push(i * PAIR + k);
  });
  const indexes = new Map<Exclude<Scanner, 'trivy'>, Map<string, Check[]>>();
  const checksOf = (scanner: Exclude<Scanner, 'trivy'>, a: CloudAsset) =>
    indexes.get(scanner)?.get(`${a.provider}:${a.asset_type}`) ?? [];
  const checkPairs = new Map<Exclude<Scanner, 'trivy'>, number[]>();
  // Groups (and GCP instances) with an ingress rule from the internet: where "open to the
  // internet" checks fail.
  const open = new Set<string>();
  for (const e of edges)
    if ((e.edge_type === 'SECURITY_GROUP_RULE' || e.edge_type === 'NACL_RULE') && INTERNET.has(e.source_id))
      open.add(e.target_id);
  const fails = (check: Check, a: CloudAsset) => {
    const needs = checkRequirement(check);
    if (needs === null) return true;
    if (needs === 'disabled') return a.metadata.enabled === false;
    return needs === 'open' ? open.has(a.id) : a.is_internet_exposed || open.has(a.id);
  };
  for (const scanner of ['scoutsuite', 'checkov', 'prowler'] as const) {
    indexes.set(scanner, checkIndex(scanner));
    const pairs: number[] = [];
    assets.forEach((a, i) => {
      const checks = checksOf(scanner, a);
      for (let k = 0; k < checks.length; k += 1) if (fails(checks[k] as Check, a)) pairs.push(i * PAIR + k);
    });
    checkPairs.set(scanner, pairs);
  }
  const capacity: Record<Scanner, number> = {
    trivy: trivyPairs.length,
    scoutsuite: checkPairs.get('scoutsuite')?.length ?? 0,
    checkov: checkPairs.get('checkov')?.length ?? 0,
    prowler: checkPairs.get('prowler')?.length ?? 0,
  };
  const want = {} as Record<Scanner, number>;
  let deficit = 0;
  let given = 0;
  for (const scanner of ['prowler', 'scoutsuite', 'checkov', 'trivy'] as const) {
    const share = scanner === 'trivy' ? total - given : Math.round(total * SCANNER_SHARE[scanner]);
    want[scanner] = Math.min(share, capacity[scanner]);
    deficit += share - want[scanner];
    given += share;
  }
  for (const scanner of ['trivy', 'checkov', 'prowler', 'scoutsuite'] as const) {
    const extra = Math.min(deficit, capacity[scanner] - want[scanner]);
    want[scanner] += extra;
    deficit -= extra;
  }

  for (const pair of sample(rng, trivyPairs, want.trivy)) {
    const asset = scanned[Math.floor(pair / PAIR)] as CloudAsset;
    const vuln = vulnsOf(asset)[pair % PAIR] as Vulnerability;
    const observed = day(rng.int(0, 180));
    const target = trivyTarget(asset);
    out.push({
      scanner: 'trivy',
      asset,
      check: null,
      vuln,
      observed,
      item: null,
      iac: null,
      finding: base(rng.uuid(), 'trivy', {
        title: `${vuln.id} in ${vuln.pkg} ${vuln.installed}`,
        description: `${vuln.pkg}: ${vuln.summary}`,
        severity: vuln.severity,
        resource_id: asset.name,
        source_finding_id: vuln.id,
        cvss_score: vuln.cvss,
        remediation: vuln.fixed ? `Upgrade ${vuln.pkg} to ${vuln.fixed}.` : null,
        evidence: `${target}: ${vuln.pkg} ${vuln.installed}`,
        check_id: vuln.id,
        compliance_controls: [],
      }),
    });
  }

  for (const scanner of ['scoutsuite', 'checkov', 'prowler'] as const) {
    for (const pair of sample(rng, checkPairs.get(scanner) ?? [], want[scanner])) {
      const asset = assets[Math.floor(pair / PAIR)] as CloudAsset;
      const check = checksOf(scanner, asset)[pair % PAIR] as Check;
      const observed = day(rng.int(0, 180));
      const refs = controlRefs(check);
      const frameworks = [...new Set(refs.map((r) => r.framework))];
      let finding: Finding;
      let item: string | null = null;
      let iac: IacLocation | null = null;
      if (scanner === 'prowler') {
        finding = base(rng.uuid(), 'prowler', {
          title: check.title,
          description: `${check.title}: ${asset.name}.`,
          severity: check.severity,
          ...prowlerResource(asset),
          resource_type: asset.asset_type,
          region: asset.region,
          account_id: asset.account_id,
          compliance_frameworks: frameworks,
          detected_at: observed,
          remediation: `See the Prowler hub entry for ${check.id}.`,
          source_finding_id: `prowler-${asset.provider.toLowerCase()}-${check.id}-${asset.account_id ?? 'global'}-${asset.region}-${asset.name}`,
          check_id: check.id,
          compliance_controls: refs,
        });
      } else if (scanner === 'scoutsuite') {
        item = (check.path ?? '{n}')
          .replace('{r}', asset.region)
          .replace('{a}', asset.account_id ?? 'global')
          .replace('{z}', `${asset.region}-b`)
          .replace('{v}', vpcOf.get(asset.id) ?? 'no-vpc')
          .replace('{n}', asset.name);
        const regional = item.includes('.regions.');
        finding = base(rng.uuid(), 'scoutsuite', {
          title: check.title,
          description: `${check.title}, which widens the attack surface.`,
          severity: check.severity,
          resource_id: asset.name,
          region: regional ? asset.region : null,
          account_id: asset.account_id,
          compliance_frameworks: check.controls.cis ? [CIS[check.cloud]] : [],
          remediation: `Fix the configuration flagged by ${check.id}.`,
          evidence: item,
          source_finding_id: `${check.id}:${item}`,
          check_id: check.id,
          compliance_controls: check.controls.cis
            ? [{ framework: CIS[check.cloud], control_id: check.controls.cis }]
            : [],
        });
      } else {
        iac = iacLocation(asset, rng);
        const segments = iac.address.split('.');
        finding = base(rng.uuid(), 'checkov', {
          title: check.title,
          description: check.title,
          severity: check.severity,
          resource_id: asset.name,
          resource_type: segments[segments.length - 2] ?? null,
          remediation: `https://docs.prismacloud.io/en/enterprise-edition/policy-reference/${check.id.toLowerCase()}`,
          evidence: `${iac.file}:${iac.lines.join('-')} (${iac.address})`,
          source_finding_id: check.id,
          check_id: check.id,
          compliance_controls: [],
        });
      }
      out.push({ scanner, asset, check, vuln: null, observed, item, iac, finding });
    }
  }
  return out;
}
