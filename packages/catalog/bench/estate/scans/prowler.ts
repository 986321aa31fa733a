/**
 * Prowler's OCSF output (`-M json-ocsf`, the default since Prowler 4, for AWS, Azure and GCP
 * alike): one JSON array of detection findings per account, as `prowler-output-<account>-<time>
 * .ocsf.json`. A few passing results are mixed in, as in any real run; cloudg skips them.
 */
import type { PlannedFinding } from '../findings.js';
import { controlRefs } from '../findings.js';

const SEVERITY: Record<string, [number, string]> = {
  INFO: [1, 'Informational'],
  LOW: [2, 'Low'],
  MEDIUM: [3, 'Medium'],
  HIGH: [4, 'High'],
  CRITICAL: [5, 'Critical'],
};

const ACCOUNT_TYPE: Record<string, string> = {
  aws: 'AWS Account',
  azure: 'Azure AD Account',
  gcp: 'GCP Account',
};

/** Prowler's compliance keys for a check: `CIS-3.0`, `PCI-4.0`, `NIST-800-53-Revision-5`. */
function compliance(p: PlannedFinding): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!p.check) return out;
  const cisVersion = p.check.cloud === 'AZURE' ? 'CIS-2.1' : 'CIS-3.0';
  for (const ref of controlRefs(p.check)) {
    const key = ref.framework.startsWith('CIS')
      ? cisVersion
      : ref.framework === 'PCI-DSS'
        ? 'PCI-4.0'
        : 'NIST-800-53-Revision-5';
    out[key] = [...(out[key] ?? []), ref.control_id];
  }
  return out;
}

function record(p: PlannedFinding, status: 'FAIL' | 'PASS'): Record<string, unknown> {
  const f = p.finding;
  const a = p.asset;
  const provider = a.provider.toLowerCase();
  const [severityId, severity] = SEVERITY[f.severity] ?? [3, 'Medium'];
  const time = Math.floor(Date.parse(p.observed) / 1000);
  const uid = status === 'FAIL' ? f.source_finding_id : `${f.source_finding_id}-pass`;
  return {
    message: f.description,
    metadata: {
      event_code: p.check?.id ?? 'unknown',
      product: { name: 'Prowler', vendor_name: 'Prowler', version: '5.4.0' },
      profiles: ['cloud', 'datetime'],
      version: '1.4.0',
    },
    severity_id: severityId,
    severity,
    status: 'New',
    status_code: status,
    status_detail: f.description,
    status_id: 1,
    activity_id: 1,
    activity_name: 'Create',
    type_uid: 200401,
    type_name: 'Detection Finding: Create',
    category_uid: 2,
    category_name: 'Findings',
    class_uid: 2004,
    class_name: 'Detection Finding',
    finding_info: {
      uid,
      title: f.title,
      desc: f.description,
      created_time: time,
      created_time_dt: p.observed,
      types: ['Software and Configuration Checks'],
    },
    resources: [
      {
        uid: a.arn ?? a.id,
        name: a.name,
        region: a.region,
        type: a.asset_type,
        group: { name: p.check?.id.split('_')[0] ?? 'unknown' },
        labels: [],
        data: { details: '' },
        ...(provider === 'aws' ? { cloud_partition: 'aws' } : {}),
      },
    ],
    cloud: {
      account: { uid: a.account_id ?? '', type: ACCOUNT_TYPE[provider] ?? 'Account' },
      provider,
      region: a.region,
    },
    remediation: { desc: f.remediation ?? '', references: [] },
    risk_details: '',
    unmapped: { compliance: compliance(p) },
    time,
    time_dt: p.observed,
  };
}

/** One file per account, rendered as the caller iterates. `passEvery` adds a PASS result per that many failures. */
export function* prowlerFiles(
  findings: readonly PlannedFinding[],
  passEvery = 10,
): Generator<[string, string]> {
  const byAccount = new Map<string, PlannedFinding[]>();
  for (const p of findings) {
    if (p.scanner !== 'prowler') continue;
    const account = p.asset.account_id ?? 'tenant';
    const list = byAccount.get(account);
    if (list) list.push(p);
    else byAccount.set(account, [p]);
  }
  let n = 0;
  for (const [account, list] of byAccount) {
    const records: Record<string, unknown>[] = [];
    for (const p of list) {
      records.push(record(p, 'FAIL'));
      n += 1;
      if (n % passEvery === 0) records.push(record(p, 'PASS'));
    }
    yield [`prowler/prowler-output-${account}-20260115120000.ocsf.json`, JSON.stringify(records)];
  }
}
