/**
 * Ontology benchmark on the realistic generated estate (bench/estate, 50,000 assets by default):
 * the ontology build (triples with n3, from a fresh dataset version each run), loading it into
 * the SPARQL worker's oxigraph store, a SPARQL count of internet-reachable databases through
 * `sparql_query` (store loaded), and `rag_chunks` over the whole estate (every entity, community
 * and relation-group chunk built from a fresh dataset version, then one page of each). Prints
 * medians with min / max over a few runs, the process CPU time (all threads) per run, and
 * whether each target of issue 15 is met; asserts nothing. On a shared machine the wall times
 * grow with its load; the CPU figure is what load distorts least.
 *
 *   pnpm --filter @cloudg/catalog bench:ontology [-- --assets 50000 --seed 1 --runs 5]
 */
import { parseArgs } from 'node:util';
import { createLogger, type Layer } from '@cloudg/core';
import { createCatalogLayer, Dataset, Workspace } from '../src/index.js';
import { buildOntology } from '../src/ontology/build.js';
import { ntriplesChunks, SparqlEngine, sparqlEngine } from '../src/ontology/sparql/engine.js';
import { generateEstate } from './estate/index.js';
import { type Timing, time } from './timing.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    assets: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '5' },
  },
});
const ASSETS = Number(values.assets);
const RUNS = Number(values.runs);

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
function line(label: string, t: Timing, targetMs?: number): void {
  const target =
    targetMs === undefined ? '' : `  target <= ${targetMs} ms: ${t.median <= targetMs ? 'met' : 'NOT met'}`;
  console.log(
    `${label.padEnd(52)} median ${fmt(t.median).padStart(7)} ms  (min ${fmt(t.min)}, max ${fmt(t.max)}; process cpu ${fmt(t.cpu)})${target}`,
  );
}

async function callOk(layer: Layer<Workspace>, name: string, args: Record<string, unknown>) {
  const result = await layer.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content[0])}`);
  return result.structured as Record<string, unknown>;
}

/**
 * Relational databases behind a security group that admits the internet. (Written as one join:
 * oxigraph evaluates a UNION whose branches share no bound variable as a cross product, which
 * at this size runs for tens of seconds.)
 */
const INTERNET_REACHABLE_DATABASES =
  'SELECT (COUNT(DISTINCT ?db) AS ?n) WHERE { ?src cmp:INTERNET_REACHABLE ?sg . ?db cmp:PROTECTED_BY_SG ?sg . ?db a cm:RelationalDatabase }';

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
    `${dataset.assets.length} assets, ${dataset.edges.length} edges, ${dataset.findings.length} findings`,
  );
  dataset.indexes.byId;
  dataset.indexes.findingsOf('');

  console.log(`\nontology (${RUNS} runs each)`);
  const build = await time(RUNS, () => buildOntology(dataset));
  line('ontology build (n3 triples, indexes, counts)', build, 5000);
  const ontology = await buildOntology(dataset);
  console.log(`  ${ontology.size} triples, ${ontology.relations.length} relation triples`);
  // Written once per build and kept (ntriplesChunks memoises), so only a first run says anything.
  line('N-Triples for the store (n3 writer, once per build)', await time(1, () => ntriplesChunks(ontology)));
  // One run: loading 1.2 million triples into oxigraph takes tens of seconds.
  const loads = await time(1, async () => {
    const engine = new SparqlEngine();
    await engine.query(ontology, 'ASK { ?s ?p ?o }', 1);
    await engine.close();
  });
  line('store load in the worker (oxigraph) + first ASK', loads);

  const ws = new Workspace();
  ws.add(dataset);
  const layer = createCatalogLayer({ workspace: ws, logger: createLogger({ level: 'silent' }) });
  await callOk(layer, 'ontology_stats', {});
  const first = await callOk(layer, 'sparql_query', { query: INTERNET_REACHABLE_DATABASES });
  console.log(`  internet-reachable databases: ${JSON.stringify(first.rows)}`);
  line(
    'sparql_query: count internet-reachable databases',
    await time(RUNS, () => callOk(layer, 'sparql_query', { query: INTERNET_REACHABLE_DATABASES })),
    500,
  );

  const rag = await time(
    RUNS,
    async () => {
      for (const chunk_type of ['entity', 'community', 'relation_group'])
        await callOk(layer, 'rag_chunks', { chunk_type, limit: 100 });
    },
    () => {
      // A fresh dataset version, with the lookup indexes every tool shares built again first:
      // they are not part of the chunking.
      dataset.touch();
      dataset.indexes.byId;
      dataset.indexes.position;
      dataset.indexes.findingsOf('');
    },
  );
  line('rag_chunks of the whole estate (all three families)', rag, 3000);
  const counts = await Promise.all(
    ['entity', 'community', 'relation_group'].map(async (chunk_type) => [
      chunk_type,
      (await callOk(layer, 'rag_chunks', { chunk_type, limit: 1 })).total,
    ]),
  );
  console.log(`  chunks: ${JSON.stringify(Object.fromEntries(counts))}`);
  await sparqlEngine().close();
}

await main();
