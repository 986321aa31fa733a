import { compactIri } from '../../ontology/iri.js';
import type { Ontology } from '../../ontology/ontology.js';

/** How the ontology tools show a node: its `hasName`, else its compact URI. */
export function displayName(ontology: Ontology, iri: string): string {
  return ontology.nameOf(iri) ?? compactIri(iri);
}
