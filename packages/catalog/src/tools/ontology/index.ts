import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerExportOntology } from './export-ontology.js';
import { registerOntologyNeighbourhood } from './ontology-neighbourhood.js';
import { registerOntologyStats } from './ontology-stats.js';
import { registerRagChunks } from './rag-chunks.js';
import { registerRelationGroups } from './relation-groups.js';
import { registerSparqlQuery } from './sparql-query.js';

/**
 * Register the ontology tools, in catalog order: ontology_stats, sparql_query,
 * ontology_neighbourhood, relation_groups, rag_chunks, export_ontology. They share the dataset's
 * cached ontology (src/ontology) and, for SPARQL and the oxigraph-written formats, one worker
 * thread holding the read-only stores.
 */
export function registerOntologyTools(registry: Registry<Workspace>): void {
  registerOntologyStats(registry);
  registerSparqlQuery(registry);
  registerOntologyNeighbourhood(registry);
  registerRelationGroups(registry);
  registerRagChunks(registry);
  registerExportOntology(registry);
}
