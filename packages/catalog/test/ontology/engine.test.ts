import { afterAll, describe, expect, it } from 'vitest';
import { ontologyOf } from '../../src/ontology/cache.js';
import { SparqlEngine } from '../../src/ontology/sparql/engine.js';
import { checkQuery } from '../../src/ontology/sparql/guard.js';
import { sampleWorkspace } from '../support/estate.js';

/** The worker's stores: two kept, the least recently used dropped, reloaded when needed. */
const engine = new SparqlEngine();
afterAll(() => engine.close());

describe('SparqlEngine', () => {
  it('answers for three ontology builds used in turn', async () => {
    const ds = (await sampleWorkspace()).get();
    const builds = [];
    for (let i = 0; i < 3; i++) {
      builds.push((await ontologyOf(ds)).ontology);
      ds.touch();
    }
    const ask = checkQuery('ASK { cmr:orders-db a cm:RelationalDatabase }', 1).text;
    for (const i of [0, 1, 0, 2, 1, 0, 2, 2, 1]) {
      const outcome = await engine.query(builds[i]!, ask, 1);
      expect(outcome, `build ${i}`).toEqual({ kind: 'boolean', answer: true });
    }
  });
});
