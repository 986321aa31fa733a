import { ONTOLOGY_FORMAT_NAMES } from '../tools/ontology/access.js';

/** Ontology serialisations starting with what was typed (any case). */
export function completeOntologyFormat(_ctx: unknown, partial: string): string[] {
  const needle = partial.trim().toLowerCase();
  return ONTOLOGY_FORMAT_NAMES.filter((f) => f.startsWith(needle));
}
