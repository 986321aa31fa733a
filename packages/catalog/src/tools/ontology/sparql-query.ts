import { InvalidArgumentsError, type Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { type QueryOutcome, QueryTimeLimitError, sparqlEngine } from '../../ontology/sparql/engine.js';
import { checkQuery } from '../../ontology/sparql/guard.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { ontologyForCall } from './access.js';
import { sparqlQueryOutput } from './output-schemas.js';
import { shapeResult } from './sparql-results.js';

/** `sparql_query`: one read-only SPARQL query against the dataset's ontology. */
export function registerSparqlQuery(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'sparql_query',
    title: 'SPARQL query',
    description:
      "Runs one read-only SPARQL query (SELECT / ASK / CONSTRUCT / DESCRIBE) against the dataset's ontology, e.g. SELECT ?r ?name WHERE { ?s cmp:INTERNET_REACHABLE ?r . ?r a cm:RelationalDatabase ; cmp:hasName ?name }. Updates, FROM / FROM NAMED and SERVICE are rejected. Rows are capped at limit (truncated + hint when more exist); URIs are compacted to prefix:name unless compact_uris is false. A query stops after 60 seconds.",
    category: 'ontology',
    // Rows are keyed by the query's own variable names, so the privacy transforms cannot tell an
    // identifier column from any other: the tool is for callers who may see everything.
    sensitivity: 'restricted',
    capabilities: ['read_state'],
    timeoutSeconds: 120,
    outputSchema: sparqlQueryOutput,
    input: {
      query: z
        .string()
        .min(1)
        .max(20000)
        .describe(
          'Read-only SPARQL (SELECT / ASK / CONSTRUCT / DESCRIBE). Predefined prefixes: cm: (classes, e.g. cm:RelationalDatabase), cmp: (relations / properties, e.g. cmp:INTERNET_REACHABLE, cmp:hasName), cmr: (individuals, cmr:<asset id>), rdf:, rdfs:, owl:, xsd:. FROM, SERVICE and UPDATE are rejected.',
        )
        .meta({
          examples: [
            'SELECT ?r ?name WHERE { ?s cmp:INTERNET_REACHABLE ?r . ?r cmp:hasName ?name } ORDER BY ?name',
            'ASK { ?s a cm:RelationalDatabase }',
          ],
        }),
      limit: z.number().int().min(1).max(1000).default(100).describe('Row cap applied after the query runs.'),
      compact_uris: z.boolean().default(true).describe('Shorten URIs to prefix:name.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      // Checked before the ontology is built: a rejected query costs nothing.
      const checked = checkQuery(args.query, args.limit);
      const { ontology } = await ontologyForCall(ctx, dataset);
      let outcome: QueryOutcome;
      try {
        outcome = await sparqlEngine().query(ontology, checked.text, args.limit, ctx.signal);
      } catch (error) {
        if (error instanceof QueryTimeLimitError || ctx.signal.aborted) throw error;
        throw new InvalidArgumentsError(
          "The SPARQL query failed while it ran; the engine's reason is in the error data.",
          {
            data: { reason: error instanceof Error ? error.message : String(error) },
          },
        );
      }
      return {
        dataset: dataset.name,
        ...shapeResult(checked.type, outcome, {
          cap: args.limit,
          compact: args.compact_uris,
          variables: checked.variables,
        }),
      };
    },
  });
}
