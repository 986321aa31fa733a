import { Writer } from 'n3';
import type { Ontology } from './ontology.js';
import { sparqlEngine } from './sparql/engine.js';
import { PREFIXES } from './vocabulary.js';

/** The RDF serialisations the ontology is written in. */
export type RdfFormat = 'turtle' | 'json-ld' | 'xml' | 'nt';

const OXIGRAPH_FORMATS: Readonly<Record<Exclude<RdfFormat, 'turtle'>, string>> = {
  'json-ld': 'application/ld+json',
  xml: 'application/rdf+xml',
  nt: 'application/n-triples',
};

/**
 * The ontology as text. Turtle is written by n3 with the predefined prefixes declared (oxigraph's
 * Turtle writer declares none, which makes every IRI long); JSON-LD, RDF/XML and N-Triples are
 * dumped by oxigraph from the dataset's store in the SPARQL worker, off the event loop.
 */
export async function serialiseOntology(
  ontology: Ontology,
  format: RdfFormat,
  signal?: AbortSignal,
): Promise<string> {
  if (format === 'turtle') {
    const writer = new Writer({ prefixes: { ...PREFIXES } });
    writer.addQuads([...ontology.quads]);
    return await new Promise<string>((resolve, reject) => {
      writer.end((error, result: string) => (error ? reject(error) : resolve(result)));
    });
  }
  return sparqlEngine().dump(ontology, OXIGRAPH_FORMATS[format], signal);
}
