import { InvalidArgumentsError, type Registry, type ToolContext } from '@cloudg/core';
import { completeOntologyFormat } from '../completions/ontology-formats.js';
import { ontologyOf } from '../ontology/cache.js';
import { serialiseOntology } from '../ontology/serialise.js';
import {
  ONTOLOGY_FORMAT_NAMES,
  ONTOLOGY_TURTLE_URI,
  type OntologyFormat,
  ontologyResource,
} from '../tools/ontology/access.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * The active dataset's ontology as text. Reading builds the ontology if needed (without progress
 * notifications: a resource read has no progress token) and returns it with the format's own
 * MIME type, whatever the template lists.
 */
async function ontologyText(ctx: ToolContext<Workspace>, format: OntologyFormat) {
  const { ontology } = await ontologyOf(ctx.app.get(), { signal: ctx.signal });
  const text = await serialiseOntology(ontology, format, ctx.signal);
  const { uri, mimeType } = ontologyResource(format);
  return [{ uri, mimeType, text }];
}

/** `cloudg://ontology/turtle` and the `cloudg://ontology/{format}` template. */
export function registerOntologyResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: ONTOLOGY_TURTLE_URI,
    name: 'ontology-turtle',
    title: 'Ontology (Turtle)',
    description: "The active dataset's RDF ontology in Turtle, with the cm:, cmp:, cmr: prefixes declared.",
    category: 'ontology',
    // One opaque text: the privacy transforms cannot tell identifiers inside it by key.
    sensitivity: 'restricted',
    mimeType: 'text/turtle',
    handler: (ctx) => ontologyText(ctx, 'turtle'),
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://ontology/{format}',
    name: 'ontology-format',
    title: 'Ontology in a format',
    description:
      "The active dataset's RDF ontology as turtle (text/turtle), json-ld (application/ld+json), xml (application/rdf+xml) or nt (application/n-triples). The read result carries the format's own MIME type.",
    category: 'ontology',
    sensitivity: 'restricted',
    mimeType: 'text/turtle',
    completions: { format: completeOntologyFormat },
    handler: (ctx, vars) => {
      const format = (vars.format ?? '').trim().toLowerCase();
      if (!(ONTOLOGY_FORMAT_NAMES as string[]).includes(format)) {
        throw new InvalidArgumentsError(
          `Unknown ontology format. Valid values: ${ONTOLOGY_FORMAT_NAMES.join(', ')}`,
          { data: { value: vars.format ?? '', valid: ONTOLOGY_FORMAT_NAMES } },
        );
      }
      return ontologyText(ctx, format as OntologyFormat);
    },
  });
}
