/**
 * The SPARQL worker's program. oxigraph's `query` is synchronous and cannot be interrupted, so
 * every store lives in a worker thread that the caller can terminate when a query runs too long.
 *
 * The program is kept as source text and started with `eval: true` so that one file works from
 * both `src/` (tests, tsx) and `dist/` (the published build) without a copy step; it is plain
 * CommonJS with no imports besides oxigraph, whose resolved path arrives in `workerData`.
 *
 * Messages in:  {id, op: 'load', key, chunks}      load N-Triples into a new read-only store
 *               {id, op: 'query', key, text, cap}  run a query, keep at most cap + 1 results
 *               {id, op: 'dump', key, format}      serialise the store (a MIME type)
 * Messages out: {id, ok: true, result} or {id, ok: false, error}
 * Terms travel as {t: 'uri' | 'literal' | 'bnode', v, dt?, lang?}.
 */
export const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const ox = require(workerData.oxigraphPath);
const MAX_STORES = workerData.maxStores || 2;
const stores = new Map();

function term(t) {
  if (t.termType === 'NamedNode') return { t: 'uri', v: t.value };
  if (t.termType === 'BlankNode') return { t: 'bnode', v: t.value };
  if (t.termType === 'Literal') {
    const out = { t: 'literal', v: t.value };
    if (t.language) out.lang = t.language;
    else if (t.datatype && t.datatype.value !== 'http://www.w3.org/2001/XMLSchema#string') out.dt = t.datatype.value;
    return out;
  }
  return { t: 'literal', v: String(t.value) };
}

function store(key) {
  const s = stores.get(key);
  if (!s) throw new Error('store not loaded: ' + key);
  // Most recently used last, so the eviction below drops the oldest.
  stores.delete(key);
  stores.set(key, s);
  return s;
}

function handle(msg) {
  if (msg.op === 'load') {
    const s = new ox.Store();
    for (const chunk of msg.chunks) s.load(chunk, { format: 'application/n-triples' });
    stores.set(msg.key, s);
    while (stores.size > MAX_STORES) stores.delete(stores.keys().next().value);
    return { size: s.size };
  }
  if (msg.op === 'query') {
    const result = store(msg.key).query(msg.text);
    if (typeof result === 'boolean') return { kind: 'boolean', answer: result };
    const limit = msg.cap + 1;
    const items = [];
    for (let i = 0; i < result.length && i < limit; i++) {
      const item = result[i];
      if (item instanceof Map) {
        const row = {};
        for (const [name, value] of item) row[name] = term(value);
        items.push(row);
      } else {
        items.push({ subject: term(item.subject), predicate: term(item.predicate), object: term(item.object) });
      }
    }
    return { kind: 'items', items, more: result.length > msg.cap };
  }
  if (msg.op === 'dump') {
    return store(msg.key).dump({ format: msg.format, from_graph_name: ox.defaultGraph() });
  }
  throw new Error('unknown op');
}

parentPort.on('message', (msg) => {
  try {
    parentPort.postMessage({ id: msg.id, ok: true, result: handle(msg) });
  } catch (error) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String(error && error.message || error) });
  }
});
`;
