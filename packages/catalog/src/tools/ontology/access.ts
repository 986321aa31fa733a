import type { ToolContext } from '@cloudg/core';
import type { Dataset } from '../../dataset/dataset.js';
import { type OntologyAccess, ontologyOf } from '../../ontology/cache.js';
import type { Workspace } from '../../workspace/workspace.js';

/**
 * The dataset's ontology for a tool call. A call that builds it reports progress (0 of 1 with
 * the asset count, fractions while the build runs, then 1 of 1); a call that finds it cached
 * reports nothing. The build stops when the call is cancelled or times out.
 */
export async function ontologyForCall(
  ctx: ToolContext<Workspace>,
  dataset: Dataset,
): Promise<OntologyAccess> {
  const progress = !dataset.isCached('ontology');
  if (progress) await ctx.reportProgress(0, 1, `building ontology for ${dataset.assets.length} assets`);
  const access = await ontologyOf(dataset, {
    signal: ctx.signal,
    onProgress: (done, total) => {
      // Strictly between 0 and 1: the final 1 of 1 is reported once the build is done.
      if (total > 0 && done < total) void ctx.reportProgress(done / total, 1);
    },
  });
  if (progress) await ctx.reportProgress(1, 1, 'ontology built');
  return access;
}

export const ONTOLOGY_TURTLE_URI = 'cloudg://ontology/turtle';

/** Link the Turtle form of the ontology (or another format's resource) to the result. */
export function linkOntology(ctx: ToolContext<Workspace>, format = 'turtle'): void {
  const { uri, mimeType } = ontologyResource(format);
  ctx.link(uri, `ontology (${format})`, { mimeType });
}

/** Formats of `export_ontology` and `cloudg://ontology/{format}`: extension and MIME type. */
export const ONTOLOGY_FORMATS = {
  turtle: { extension: 'ttl', mimeType: 'text/turtle' },
  'json-ld': { extension: 'jsonld', mimeType: 'application/ld+json' },
  xml: { extension: 'rdf', mimeType: 'application/rdf+xml' },
  nt: { extension: 'nt', mimeType: 'application/n-triples' },
} as const;
export type OntologyFormat = keyof typeof ONTOLOGY_FORMATS;
export const ONTOLOGY_FORMAT_NAMES = Object.keys(ONTOLOGY_FORMATS) as OntologyFormat[];

export function ontologyResource(format: string): { uri: string; mimeType: string } {
  const known = ONTOLOGY_FORMATS[format as OntologyFormat];
  return { uri: `cloudg://ontology/${format}`, mimeType: known?.mimeType ?? 'text/turtle' };
}
