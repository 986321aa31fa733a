import { compliancePosture } from '../../compliance/posture.js';
import type { Dataset } from '../../dataset/dataset.js';
import { relationshipGraph } from '../../graph/index.js';
import { findingRiskScore } from '../../model/finding.js';
import { SEVERITIES } from '../../model/severity.js';
import { reportAttackPaths } from './attack-paths.js';
import { layoutNodes } from './layout.js';

/**
 * The data the interactive report embeds: counts, the laid-out graph, the attack paths, the
 * findings and the compliance posture. Nodes are referred to by index (edges, paths, findings),
 * so the drawing depends on no identifier's spelling, and repeated strings (types, providers,
 * edge types) are stored once. The shape is the contract between this module and the viewer
 * (report/src).
 */
export interface ReportData {
  title: string;
  dataset: string;
  generated_at: string;
  summary: {
    assets: number;
    edges: number;
    internet_exposed: number;
    findings_total: number;
    findings_open: number;
    suppressed: number;
    attack_paths: number;
    providers: string[];
    by_severity: Record<string, number>;
  };
  severities: readonly string[];
  graph: {
    types: string[];
    providers: string[];
    edge_types: string[];
    /** [label, id, type index, provider index, flags (1 exposed, 2 external), open findings, worst severity index or -1, region, account, x, y] */
    nodes: [string, string, number, number, number, number, number, string, string, number, number][];
    /** [source index, target index, edge type index] */
    edges: [number, number, number][];
    groups: { label: string; x: number; y: number; radius: number }[];
  };
  paths: { nodes: number[]; labels: string[]; score: number }[];
  /** [id, severity index, title, source tool, resource label, node index or -1, risk, suppressed, description, remediation, frameworks] */
  /** [id, severity index, title, source tool, resource label, node index or -1, risk, suppressed, description, remediation, frameworks]; title, description, remediation and frameworks are indexes into `texts` */
  findings: [string, number, number, string, string, number, number, boolean, number, number, number][];
  /**
   * Finding texts, each once: scanners repeat the same title, description and remediation on
   * every resource they flag, so a large estate's report stores them once (a third of the size).
   */
  texts: string[];
  compliance: {
    framework: string;
    controls_evaluated: number;
    controls_failing: number;
    controls_passing: number;
    pass_rate: number | null;
    open_findings: number;
    affected_assets: number;
  }[];
}

/** Free text kept per finding in the page (the full text is in findings.json). */
const MAX_TEXT = 1000;

function interner(): { index: (value: string) => number; values: string[] } {
  const values: string[] = [];
  const seen = new Map<string, number>();
  return {
    values,
    index(value) {
      let i = seen.get(value);
      if (i === undefined) {
        i = values.length;
        values.push(value);
        seen.set(value, i);
      }
      return i;
    },
  };
}

const clip = (text: string | null | undefined) => {
  const t = text ?? '';
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
};

export function reportData(dataset: Dataset, name: string, signal?: AbortSignal): ReportData {
  const graph = relationshipGraph(dataset, signal);
  const idx = dataset.indexes;
  const texts = interner();
  const types = interner();
  const providers = interner();
  const edgeTypes = interner();
  const nodeIndex = new Map<string, number>();
  const raw: { id: string; asset: ReturnType<typeof idx.assetById> | null }[] = [];
  graph.forEachNode((id, attributes) => {
    nodeIndex.set(id, raw.length);
    raw.push({ id, asset: attributes.asset });
  });
  const layout = layoutNodes(
    raw.map(({ asset }) => ({
      group: asset
        ? `${asset.provider} ${asset.account_id ?? 'no account'} ${asset.region || 'global'}`
        : 'outside the estate',
      order: asset?.asset_type ?? '',
    })),
    signal,
  );
  const nodes: ReportData['graph']['nodes'] = raw.map(({ id, asset }, i) => {
    const x = layout.positions[2 * i] ?? 0;
    const y = layout.positions[2 * i + 1] ?? 0;
    if (!asset) return [id, id, types.index('EXTERNAL'), providers.index('EXTERNAL'), 2, 0, -1, '', '', x, y];
    const stats = idx.findingStats(asset.id);
    const worst = stats.maxSeverity ? SEVERITIES.indexOf(stats.maxSeverity) : -1;
    return [
      asset.name,
      asset.id,
      types.index(asset.asset_type),
      providers.index(asset.provider),
      asset.is_internet_exposed ? 1 : 0,
      stats.open,
      worst,
      asset.region ?? '',
      asset.account_id ?? '',
      x,
      y,
    ];
  });
  const edges: ReportData['graph']['edges'] = [];
  graph.forEachEdge((_key, attributes, source, target) => {
    const s = nodeIndex.get(source);
    const t = nodeIndex.get(target);
    if (s !== undefined && t !== undefined) edges.push([s, t, edgeTypes.index(attributes.edge_type)]);
  });
  signal?.throwIfAborted();
  const paths = reportAttackPaths(dataset, signal).flatMap((p) => {
    const indexes = p.nodes.map((id) => nodeIndex.get(id) ?? -1);
    return indexes.includes(-1) ? [] : [{ nodes: indexes, labels: p.labels, score: p.score }];
  });
  // Findings meet their assets as everywhere else in the catalog (the dataset's finding index).
  const nodeOfFinding = new Map<object, number>();
  raw.forEach(({ asset }, i) => {
    if (asset) for (const f of idx.findingsOf(asset.id)) if (!nodeOfFinding.has(f)) nodeOfFinding.set(f, i);
  });
  const findings: ReportData['findings'] = dataset.findings
    .map((f) => {
      const node = nodeOfFinding.get(f) ?? -1;
      const label = raw[node]?.asset?.name ?? f.resource_arn ?? f.resource_id ?? '';
      return [
        f.id,
        SEVERITIES.indexOf(f.severity),
        texts.index(clip(f.title)),
        f.source_tool,
        label,
        node,
        findingRiskScore(f),
        f.is_suppressed,
        texts.index(clip(f.description)),
        texts.index(clip(f.remediation)),
        texts.index(f.compliance_frameworks.join(', ')),
      ] as ReportData['findings'][number];
    })
    .sort((a, b) => a[1] - b[1] || b[6] - a[6]);
  const bySeverity: Record<string, number> = {};
  let open = 0;
  for (const f of dataset.findings) {
    if (f.is_suppressed) continue;
    open += 1;
    bySeverity[f.severity] = (bySeverity[f.severity] ?? 0) + 1;
  }
  return {
    title: `cloudg report: ${name}`,
    dataset: name,
    generated_at: new Date().toISOString(),
    summary: {
      assets: dataset.assets.length,
      edges: dataset.edges.length,
      internet_exposed: dataset.assets.filter((a) => a.is_internet_exposed).length,
      findings_total: dataset.findings.length,
      findings_open: open,
      suppressed: dataset.findings.length - open,
      attack_paths: paths.length,
      providers: [...dataset.providers],
      by_severity: bySeverity,
    },
    severities: SEVERITIES,
    graph: {
      types: types.values,
      providers: providers.values,
      edge_types: edgeTypes.values,
      nodes,
      edges,
      groups: layout.groups,
    },
    paths,
    findings,
    texts: texts.values,
    compliance: compliancePosture(dataset, null).map((p) => ({
      framework: p.framework,
      controls_evaluated: p.controls_evaluated,
      controls_failing: p.controls_failing,
      controls_passing: p.controls_passing,
      pass_rate: p.pass_rate,
      open_findings: p.open_findings,
      affected_assets: p.affected_assets,
    })),
  };
}
