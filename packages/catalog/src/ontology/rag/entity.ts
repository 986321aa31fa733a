import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { maxSeverity, type Severity, severityRank } from '../../model/severity.js';
import { append } from '../multimap.js';
import { IN, LazyChunk, OUT, spacedJson, WARNING } from './chunk.js';
import { nodeName, type RagRelation, ragRelations } from './relations.js';

/** Caps on what one entity chunk's text lists. */
const MAX_RELATIONS = 30;
const MAX_FINDINGS = 10;

/**
 * Entity chunks, `entity::<asset id>`, one per asset in dataset order: a header (name, type,
 * provider, region, ARN, account, tags, exposure), up to 30 of the asset's edge relations
 * (outgoing first) and up to 10 of its findings, worst first. Findings are matched to assets
 * like the ontology matches them (id, ARN, unique name, unique ARN tail).
 */
export function entityChunks(dataset: Dataset, signal?: AbortSignal): readonly LazyChunk[] {
  return dataset.derived('rag_entity', (ds) => {
    const outgoing = new Map<string, RagRelation[]>();
    const incoming = new Map<string, RagRelation[]>();
    for (const r of ragRelations(ds, signal)) {
      if (!r.fromEdge) continue;
      push(outgoing, r.source, r);
      push(incoming, r.target, r);
    }
    const chunks: LazyChunk[] = [];
    let n = 0;
    for (const asset of ds.assets) {
      if (++n % 4096 === 0) signal?.throwIfAborted();
      chunks.push(entityChunk(ds, asset, outgoing.get(asset.id) ?? [], incoming.get(asset.id) ?? []));
    }
    return chunks;
  });
}

function push(map: Map<string, RagRelation[]>, key: string, r: RagRelation): void {
  append(map, key, r);
}

function entityChunk(dataset: Dataset, asset: CloudAsset, out: RagRelation[], inc: RagRelation[]): LazyChunk {
  const findings = [...dataset.indexes.findingsOf(asset.id)].sort(
    (a, b) => severityRank(b.severity) - severityRank(a.severity),
  );
  const write = () => {
    const lines = [
      `Resource: ${asset.name}`,
      `Type: ${asset.asset_type}`,
      `Provider: ${asset.provider}`,
      `Region: ${asset.region}`,
    ];
    if (asset.arn) lines.push(`ARN: ${asset.arn}`);
    if (asset.account_id) lines.push(`Account: ${asset.account_id}`);
    if (Object.keys(asset.tags).length > 0) lines.push(`Tags: ${spacedJson(asset.tags)}`);
    if (asset.is_internet_exposed) lines.push(`${WARNING} INTERNET EXPOSED`);
    const relations = [
      ...out.map((r) => `  ${OUT} ${r.relation}: ${nodeName(dataset, r.target)}`),
      ...inc.map((r) => `  ${IN} ${r.relation}: ${nodeName(dataset, r.source)}`),
    ];
    if (relations.length > 0)
      lines.push('', `Relations (${relations.length}):`, ...relations.slice(0, MAX_RELATIONS));
    if (findings.length > 0) {
      lines.push('', `Findings (${findings.length}):`);
      for (const f of findings.slice(0, MAX_FINDINGS)) lines.push(`  [${f.severity}] ${f.title}`);
    }
    return lines.join('\n');
  };
  const frameworks = new Set<string>();
  for (const f of findings) for (const fw of f.compliance_frameworks) frameworks.add(fw);
  const worst: Severity | null = maxSeverity(findings.map((f) => f.severity));
  return new LazyChunk(
    `entity::${asset.id}`,
    'entity',
    {
      asset_type: asset.asset_type,
      provider: asset.provider,
      region: asset.region,
      account_id: asset.account_id,
      is_internet_exposed: asset.is_internet_exposed === true,
      relation_types: [...new Set([...out, ...inc].map((r) => r.relation))].sort(),
      severity_max: worst ?? 'NONE',
      compliance_frameworks: [...frameworks].sort(),
      neighbour_count: out.length + inc.length,
      finding_count: findings.length,
      arn: asset.arn,
    },
    write,
  );
}
