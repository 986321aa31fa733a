/**
 * Benchmark of the dependency, cross-account, centrality, export and coverage graph tools on the
 * realistic generated estate (bench/estate, 50,000 assets by default), called through a real
 * layer (allow-all policy, so the figures are the tools' own cost): `largest_blast_radius`,
 * `centrality_top` by degree and by betweenness (300 sampled sources, computed afresh each run),
 * `subgraph_export` (D3 and GraphML), `dependency_tree`, `depends_on` / `dependents`,
 * `shared_dependencies`, `cross_account_edges` and `security_coverage`. Where `python3` can import
 * networkx, the same sampled betweenness (k=300 over the same relationship graph) is timed there
 * once (it takes over a minute on this estate) and the ratio printed. Prints figures and whether each target of issue 13 is met; asserts
 * nothing.
 *
 *   pnpm --filter @cloudg/catalog bench:graph-tools [-- --assets 50000 --seed 1 --runs 15]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, type Layer } from '@cloudg/core';
import { relationshipGraph, sampledBetweenness, sampleNodes } from '../src/graph/index.js';
import { createCatalogLayer, Dataset, Workspace } from '../src/index.js';
import { generateEstate } from './estate/index.js';
import { type Timing, time } from './timing.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    assets: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '15' },
  },
});
const ASSETS = Number(values.assets);
const RUNS = Number(values.runs);

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
function line(label: string, t: Timing, targetMs?: number): void {
  const target =
    targetMs === undefined ? '' : `  target <= ${targetMs} ms: ${t.median <= targetMs ? 'met' : 'NOT met'}`;
  console.log(
    `${label.padEnd(50)} median ${fmt(t.median).padStart(7)} ms  (min ${fmt(t.min)}, max ${fmt(t.max)}; cpu ${fmt(t.cpu)})${target}`,
  );
}

async function callOk(
  layer: Layer<Workspace>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await layer.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content[0])}`);
  return result.structured as Record<string, unknown>;
}

/** A deterministic pseudo-random index sequence, so every run times the same calls. */
function picker(seed: number, size: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % size;
  };
}

const NETWORKX_BETWEENNESS = `
import sys, time, networkx as nx
g = nx.DiGraph()
with open(sys.argv[1]) as f:
    for line in f:
        s, t = line.rstrip('\\n').split('\\t')
        g.add_edge(s, t)
with open(sys.argv[2]) as f:
    for line in f:
        g.add_node(line.rstrip('\\n'))
times = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    nx.betweenness_centrality(g, k=300, seed=7)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print(times[(len(times) - 1) // 2])
`;

async function main(): Promise<void> {
  console.log(`generating the estate: ${ASSETS} assets, seed ${values.seed}`);
  const estate = generateEstate({ seed: Number(values.seed), assets: ASSETS, scans: false });
  const dataset = new Dataset({
    name: 'estate',
    kind: 'inventory',
    source: 'inline',
    assets: estate.assets,
    edges: estate.edges,
    findings: estate.findings,
  });
  console.log(
    `${dataset.assets.length} assets, ${dataset.edges.length} edges; load average ${loadavg()[0]?.toFixed(1)}`,
  );
  const ws = new Workspace();
  ws.add(dataset);
  const layer = createCatalogLayer({ workspace: ws, logger: createLogger({ level: 'silent' }) });
  // Build the cached views once, as a first call would.
  await callOk(layer, 'graph_stats', {});
  await callOk(layer, 'depends_on', { ref: (dataset.assets[0] as { id: string }).id });
  const graph = relationshipGraph(dataset);
  console.log(`relationship graph: ${graph.order} nodes, ${graph.size} edges`);

  console.log('\ntools, through the layer (views cached)');
  const top = await callOk(layer, 'largest_blast_radius', {});
  line(
    'largest_blast_radius (top 15)',
    await time(RUNS, () => callOk(layer, 'largest_blast_radius', {})),
    2000,
  );
  const first = (top.items as { name: string; transitive_dependents: number }[])[0];
  console.log(`  (first: ${first?.name}, ${first?.transitive_dependents} transitive dependents)`);
  line(
    'largest_blast_radius (top 100, 400 candidates)',
    await time(5, () => callOk(layer, 'largest_blast_radius', { top: 100 })),
  );
  line('shared_dependencies (first call)', await time(1, () => callOk(layer, 'shared_dependencies', {})));
  line(
    'shared_dependencies (ranking cached)',
    await time(RUNS, () => callOk(layer, 'shared_dependencies', {})),
  );

  // Centrality scores are cached per dataset version: drop the cache before each timed run.
  const dropCentrality = () => {
    const cache = dataset.isCached('centrality') ? dataset.derived('centrality', () => new Map()) : null;
    cache?.clear();
  };
  line(
    'centrality_top degree (computed each run)',
    await time(RUNS, () => callOk(layer, 'centrality_top', { metric: 'degree' }), dropCentrality),
  );
  line('centrality_top degree (cached)', await time(RUNS, () => callOk(layer, 'centrality_top', {})));
  const between = await time(
    3,
    () => callOk(layer, 'centrality_top', { metric: 'betweenness' }),
    dropCentrality,
  );
  line('centrality_top betweenness (k=300, computed each run)', between, 5000);
  const sources = sampleNodes(graph.nodes(), 300, 7);
  const walk = await time(3, () => sampledBetweenness(graph, { sources }));
  line('  of which the sampled Brandes walk', walk);

  const next = picker(7, dataset.assets.length);
  const assetId = () => (dataset.assets[next()] as { id: string }).id;
  line(
    'subgraph_export d3, 3 seeds, depth 2',
    await time(RUNS, () =>
      callOk(layer, 'subgraph_export', { seeds: [assetId(), assetId(), assetId()], depth: 2 }),
    ),
  );
  line(
    'subgraph_export graphml, 3 seeds, depth 2',
    await time(RUNS, () =>
      callOk(layer, 'subgraph_export', {
        seeds: [assetId(), assetId(), assetId()],
        depth: 2,
        format: 'graphml',
      }),
    ),
  );
  line(
    'subgraph_export d3, internet, depth 1, 2,000 nodes',
    await time(5, () => callOk(layer, 'subgraph_export', { seeds: ['internet'], max_nodes: 2000 })),
  );
  line(
    'dependency_tree both, depth 3',
    await time(RUNS, () => callOk(layer, 'dependency_tree', { ref: assetId() })),
  );
  line(
    'dependents depth 15',
    await time(RUNS, () => callOk(layer, 'dependents', { ref: assetId(), max_depth: 15 })),
  );
  line('cross_account_edges (first call)', await time(1, () => callOk(layer, 'cross_account_edges', {})));
  line(
    'cross_account_edges (rows cached, external_only)',
    await time(RUNS, () => callOk(layer, 'cross_account_edges', { external_only: true })),
  );
  line('security_coverage', await time(RUNS, () => callOk(layer, 'security_coverage', {})));

  let python = false;
  try {
    execFileSync('python3', ['-c', 'import networkx'], { stdio: 'ignore' });
    python = true;
  } catch {
    console.log('\nnetworkx is not importable by python3: no comparison');
  }
  if (python) {
    const dir = await mkdtemp(join(tmpdir(), 'cloudg-graph-tools-bench-'));
    try {
      const edges: string[] = [];
      graph.forEachEdge((_k, _a, s, t) => {
        if (s !== t) edges.push(`${s}\t${t}`);
      });
      await writeFile(join(dir, 'edges.tsv'), `${edges.join('\n')}\n`);
      await writeFile(join(dir, 'nodes.txt'), `${graph.nodes().join('\n')}\n`);
      await writeFile(join(dir, 'betweenness.py'), NETWORKX_BETWEENNESS);
      const nx = Number(
        execFileSync(
          'python3',
          [join(dir, 'betweenness.py'), join(dir, 'edges.tsv'), join(dir, 'nodes.txt'), '1'],
          {
            maxBuffer: 1 << 20,
          },
        )
          .toString()
          .trim(),
      );
      console.log('\nsampled betweenness (k=300) over the same relationship graph');
      console.log(
        `${'networkx betweenness_centrality(k=300, seed=7)'.padEnd(50)} median ${fmt(nx).padStart(7)} ms`,
      );
      console.log(`ratio networkx / cloudg walk: ${(nx / walk.median).toFixed(1)}x (aim >= 5x)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

await main();
