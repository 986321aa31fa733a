import { createHash } from 'node:crypto';
import { canonicalJson } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { Finding } from '../model/finding.js';

/**
 * What changed between two datasets. Assets are matched on ARN (else id) so the same resource
 * matches across collections whose internal ids differ; edges on (source key, target key,
 * edge type, relationship); findings on (tool, scanner id or title, resource key).
 */

export interface DiffSection<T> {
  count: number;
  items: T[];
  truncated: boolean;
}

export interface AssetDiffBrief {
  id: string;
  key: string;
  name: string;
  type: string;
  account_id: string | null;
  region: string;
}

export interface ChangedAssetBrief extends AssetDiffBrief {
  changed_fields: string[];
  internet_exposed?: { before: boolean; after: boolean };
}

export interface EdgeDiffBrief {
  source: string;
  target: string;
  edge_type: string;
  relationship: string | null;
}

export interface FindingDiffBrief {
  id: string;
  title: string;
  severity: string;
  resource: string | null;
  source_tool: string;
}

export interface DatasetDiff {
  base: string;
  target: string;
  assets: {
    added: DiffSection<AssetDiffBrief>;
    removed: DiffSection<AssetDiffBrief>;
    changed: DiffSection<ChangedAssetBrief>;
    unchanged: number;
  };
  edges: { added: DiffSection<EdgeDiffBrief>; removed: DiffSection<EdgeDiffBrief> };
  findings: {
    new: DiffSection<FindingDiffBrief>;
    resolved: DiffSection<FindingDiffBrief>;
    severity_changed: DiffSection<FindingDiffBrief & { severity_before: string }>;
  };
  newly_internet_exposed: DiffSection<ChangedAssetBrief | AssetDiffBrief>;
}

function section<T>(items: T[], limit: number): DiffSection<T> {
  return { count: items.length, items: items.slice(0, limit), truncated: items.length > limit };
}

function assetKey(a: CloudAsset): string {
  return a.arn ?? a.id;
}

function brief(a: CloudAsset): AssetDiffBrief {
  return {
    id: a.id,
    key: assetKey(a),
    name: a.name,
    type: a.asset_type,
    account_id: a.account_id,
    region: a.region,
  };
}

function metadataHash(a: CloudAsset): string {
  return createHash('sha256').update(canonicalJson(a.metadata)).digest('hex');
}

function changedFields(before: CloudAsset, after: CloudAsset): string[] {
  const fields: string[] = [];
  if (before.name !== after.name) fields.push('name');
  if (before.asset_type !== after.asset_type) fields.push('type');
  if (before.region !== after.region) fields.push('region');
  if (before.account_id !== after.account_id) fields.push('account_id');
  if (canonicalJson(before.tags) !== canonicalJson(after.tags)) fields.push('tags');
  if (before.is_internet_exposed !== after.is_internet_exposed) fields.push('internet_exposed');
  if (metadataHash(before) !== metadataHash(after)) fields.push('metadata');
  return fields.sort();
}

function endpointKey(dataset: Dataset, endpoint: string): string {
  const asset = dataset.indexes.assetById(endpoint);
  return asset ? assetKey(asset) : endpoint;
}

function edgeBriefs(dataset: Dataset): Map<string, EdgeDiffBrief> {
  const out = new Map<string, EdgeDiffBrief>();
  for (const e of dataset.edges) {
    const b: EdgeDiffBrief = {
      source: endpointKey(dataset, e.source_id),
      target: endpointKey(dataset, e.target_id),
      edge_type: e.edge_type,
      relationship: e.relationship,
    };
    const key = JSON.stringify([b.source, b.target, b.edge_type, b.relationship]);
    if (!out.has(key)) out.set(key, b);
  }
  return out;
}

function findingMap(dataset: Dataset): Map<string, { finding: Finding; brief: FindingDiffBrief }> {
  const out = new Map<string, { finding: Finding; brief: FindingDiffBrief }>();
  for (const f of dataset.findings) {
    const asset = dataset.indexes.assetOfFinding(f);
    const resource = f.resource_arn ?? asset?.arn ?? f.resource_id;
    const key = JSON.stringify([
      f.source_tool,
      f.source_finding_id ?? f.title,
      asset ? assetKey(asset) : resource,
    ]);
    if (out.has(key)) continue;
    out.set(key, {
      finding: f,
      brief: { id: f.id, title: f.title, severity: f.severity, resource, source_tool: f.source_tool },
    });
  }
  return out;
}

export function diffDatasets(base: Dataset, target: Dataset, limit = 50): DatasetDiff {
  const before = new Map(base.assets.map((a) => [assetKey(a), a]));
  const after = new Map(target.assets.map((a) => [assetKey(a), a]));
  const added: AssetDiffBrief[] = [];
  const removed: AssetDiffBrief[] = [];
  const changed: ChangedAssetBrief[] = [];
  const exposed: (ChangedAssetBrief | AssetDiffBrief)[] = [];
  let unchanged = 0;
  for (const [key, a] of after) {
    const old = before.get(key);
    if (!old) {
      added.push(brief(a));
      if (a.is_internet_exposed) exposed.push(brief(a));
      continue;
    }
    const fields = changedFields(old, a);
    if (fields.length === 0) {
      unchanged += 1;
      continue;
    }
    const item: ChangedAssetBrief = { ...brief(a), changed_fields: fields };
    if (fields.includes('internet_exposed')) {
      item.internet_exposed = { before: old.is_internet_exposed, after: a.is_internet_exposed };
      if (a.is_internet_exposed) exposed.push(item);
    }
    changed.push(item);
  }
  for (const [key, a] of before) if (!after.has(key)) removed.push(brief(a));

  const edgesBefore = edgeBriefs(base);
  const edgesAfter = edgeBriefs(target);
  const findingsBefore = findingMap(base);
  const findingsAfter = findingMap(target);
  const severityChanged: (FindingDiffBrief & { severity_before: string })[] = [];
  for (const [key, { brief: now }] of findingsAfter) {
    const old = findingsBefore.get(key);
    if (old && old.finding.severity !== now.severity)
      severityChanged.push({ ...now, severity_before: old.finding.severity });
  }

  return {
    base: base.name,
    target: target.name,
    assets: {
      added: section(added, limit),
      removed: section(removed, limit),
      changed: section(changed, limit),
      unchanged,
    },
    edges: {
      added: section(
        [...edgesAfter].filter(([k]) => !edgesBefore.has(k)).map(([, b]) => b),
        limit,
      ),
      removed: section(
        [...edgesBefore].filter(([k]) => !edgesAfter.has(k)).map(([, b]) => b),
        limit,
      ),
    },
    findings: {
      new: section(
        [...findingsAfter].filter(([k]) => !findingsBefore.has(k)).map(([, v]) => v.brief),
        limit,
      ),
      resolved: section(
        [...findingsBefore].filter(([k]) => !findingsAfter.has(k)).map(([, v]) => v.brief),
        limit,
      ),
      severity_changed: section(severityChanged, limit),
    },
    newly_internet_exposed: section(exposed, limit),
  };
}
