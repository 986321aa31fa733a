import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import type { Dataset } from '../../dataset/dataset.js';
import { maxSeverity, type Severity } from '../../model/severity.js';
import { append } from '../multimap.js';
import { BULLET, type RagChunk, spacedJson, WARNING } from './chunk.js';

type Louvain = (
  graph: UndirectedGraph,
  options: { rng: () => number; randomWalk: boolean },
) => Record<string, number>;
// The package is CommonJS (`module.exports = fn`) but its types declare a default export; take
// the function whichever way the module system hands it over.
const louvain = ((louvainModule as unknown as { default?: Louvain }).default ??
  (louvainModule as unknown as Louvain)) as Louvain;

/** Seed of the community detection, so `community::<n>` names the same cluster on every run. */
const SEED = 0x5eed;

/** A small deterministic PRNG (mulberry32) for Louvain's random choices. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * Community chunks, `community::<n>`: Louvain communities of the undirected graph of the edges
 * (placeholders such as `0.0.0.0/0` take part), singletons skipped. Louvain runs with a fixed
 * seed and communities are numbered largest first (ties: the one holding the earliest asset),
 * so, unlike the reference, the numbering is stable between runs. `risk_score` is 0.3 per
 * member plus 0.5 per finding plus 2.0 per internet-exposed member, capped at 10.
 */
export function communityChunks(dataset: Dataset, signal?: AbortSignal): readonly RagChunk[] {
  return dataset.derived('rag_community', (ds) => {
    // The undirected graph straight from the edges (assets first, then placeholders as edges
    // name them; one edge per pair, self-loops dropped): the same graph as an undirected copy of
    // the relationship graph, for half the work.
    const graph = new UndirectedGraph();
    for (const a of ds.assets) if (!graph.hasNode(a.id)) graph.addNode(a.id);
    let n = 0;
    for (const e of ds.edges) {
      if (++n % 4096 === 0) signal?.throwIfAborted();
      const { source_id: source, target_id: target } = e;
      if (source === target) continue;
      if (!graph.hasNode(source)) graph.addNode(source);
      if (!graph.hasNode(target)) graph.addNode(target);
      if (!graph.hasEdge(source, target)) graph.addEdge(source, target);
    }
    signal?.throwIfAborted();
    const assignment = graph.size > 0 ? louvain(graph, { rng: seededRandom(SEED), randomWalk: false }) : {};
    signal?.throwIfAborted();
    const position = ds.indexes.position;
    const rank = (id: string) => position.get(id) ?? Number.MAX_SAFE_INTEGER;
    const groups = new Map<number, string[]>();
    for (const [node, community] of Object.entries(assignment)) {
      append(groups, community, node);
    }
    const communities = [...groups.values()]
      .filter((members) => members.length >= 2)
      .map((members) => members.sort((a, b) => rank(a) - rank(b)))
      .sort((a, b) => b.length - a.length || rank(a[0]!) - rank(b[0]!));
    return communities.map((members, i) => communityChunk(ds, graph, members, i + 1));
  });
}

function communityChunk(dataset: Dataset, graph: UndirectedGraph, members: string[], id: number): RagChunk {
  const byId = dataset.indexes.byId;
  const inside = new Set(members);
  let internal = 0;
  let external = 0;
  for (const node of members) {
    graph.forEachEdge(node, (_edge, _attrs, source, target) => {
      const other = source === node ? target : source;
      if (!inside.has(other)) external += 1;
      else if (node < other) internal += 1;
    });
  }
  const types: Record<string, number> = {};
  const severities: Severity[] = [];
  const frameworks = new Set<string>();
  let exposed = 0;
  let findings = 0;
  const lines = [`Community ${id} (${members.length} resources):`];
  for (const node of members) {
    const asset = byId.get(node);
    const type = asset?.asset_type ?? 'EXTERNAL';
    types[type] = (types[type] ?? 0) + 1;
    lines.push(`  ${BULLET} ${asset?.name ?? node} (${type})`);
    if (!asset) continue;
    if (asset.is_internet_exposed) exposed += 1;
    for (const f of dataset.indexes.findingsOf(asset.id)) {
      findings += 1;
      severities.push(f.severity);
      for (const fw of f.compliance_frameworks) frameworks.add(fw);
    }
  }
  const worst = maxSeverity(severities) ?? 'NONE';
  lines.push(
    '',
    `Asset types: ${spacedJson(types)}`,
    `Internal edges: ${internal}, External edges: ${external}`,
  );
  if (exposed > 0) lines.push(`${WARNING} ${exposed} internet-exposed resources`);
  if (findings > 0) lines.push(`Findings: ${findings} (max severity: ${worst})`);
  return {
    chunk_id: `community::${id}`,
    chunk_type: 'community',
    content: lines.join('\n'),
    metadata: {
      community_id: id,
      member_count: members.length,
      asset_types: types,
      internal_edges: internal,
      external_edges: external,
      internet_exposed_count: exposed,
      finding_count: findings,
      severity_max: worst,
      compliance_frameworks: [...frameworks].sort(),
      risk_score: round1(Math.min(10, 0.3 * members.length + 0.5 * findings + 2 * exposed)),
    },
  };
}
