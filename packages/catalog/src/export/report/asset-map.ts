import type { Dataset } from '../../dataset/dataset.js';
import type { Finding } from '../../model/finding.js';
import { SEVERITIES, type Severity } from '../../model/severity.js';

/**
 * `asset-map.json` and `compliance-map.json` (INVENTORY_REFERENCE.md 19): the inventory joined
 * with the findings. A finding belongs to an asset when its `resource_arn` or `resource_id`
 * equals the asset's id, ARN or name, the reference's rule (simpler than the asset matcher the
 * tools use, so the files agree with the reference's).
 */

function breakdown(findings: Iterable<Finding>): Partial<Record<Severity, number>> {
  const counts = new Map<Severity, number>();
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  const out: Partial<Record<Severity, number>> = {};
  for (const s of SEVERITIES) {
    const n = counts.get(s);
    if (n) out[s] = n;
  }
  return out;
}

/** Asset index -> its findings, by the reference's matching rule (computed once per export). */
export function matchFindings(dataset: Dataset): Map<number, Finding[]> {
  const byKey = new Map<string, number>();
  dataset.assets.forEach((a, i) => {
    for (const key of [a.id, a.arn, a.name]) if (key && !byKey.has(key)) byKey.set(key, i);
  });
  const out = new Map<number, Finding[]>();
  for (const f of dataset.findings) {
    const i =
      (f.resource_arn ? byKey.get(f.resource_arn) : undefined) ??
      (f.resource_id ? byKey.get(f.resource_id) : undefined);
    if (i === undefined) continue;
    const list = out.get(i) ?? [];
    list.push(f);
    out.set(i, list);
  }
  return out;
}

export function assetMapFile(
  dataset: Dataset,
  matched: Map<number, Finding[]> = matchFindings(dataset),
): Record<string, unknown> {
  const rows = dataset.assets.map((a, i) => {
    const findings = matched.get(i) ?? [];
    return {
      id: a.id,
      arn: a.arn,
      name: a.name,
      type: a.asset_type,
      provider: a.provider,
      region: a.region,
      account_id: a.account_id,
      internet_exposed: a.is_internet_exposed,
      finding_count: findings.length,
      severity_breakdown: breakdown(findings),
      finding_ids: findings.map((f) => f.id),
    };
  });
  // Stable: equal counts keep inventory order.
  rows.sort((a, b) => b.finding_count - a.finding_count);
  return {
    total_assets: dataset.assets.length,
    assets_with_findings: rows.filter((r) => r.finding_count > 0).length,
    assets: rows,
  };
}

export function complianceMapFile(
  dataset: Dataset,
  matched: Map<number, Finding[]> = matchFindings(dataset),
): Record<string, unknown> {
  const assetOf = new Map<Finding, number>();
  for (const [i, list] of matched) for (const f of list) assetOf.set(f, i);
  const byFramework = new Map<string, Finding[]>();
  for (const f of dataset.findings) {
    for (const fw of f.compliance_frameworks) {
      const list = byFramework.get(fw) ?? [];
      list.push(f);
      byFramework.set(fw, list);
    }
  }
  const frameworks: Record<string, unknown> = {};
  for (const fw of [...byFramework.keys()].sort()) {
    const findings = byFramework.get(fw) ?? [];
    const affected = new Set<string>();
    for (const f of findings) {
      const i = assetOf.get(f);
      const asset = i === undefined ? undefined : dataset.assets[i];
      const key = asset ? (asset.arn ?? asset.id) : f.resource_arn;
      if (key) affected.add(key);
    }
    const list = [...affected].sort();
    frameworks[fw] = {
      findings: findings.length,
      severity_breakdown: breakdown(findings),
      affected_assets: list,
      affected_asset_count: list.length,
    };
  }
  return {
    frameworks,
    total_frameworks: byFramework.size,
    total_inventory_assets: dataset.assets.length,
  };
}
