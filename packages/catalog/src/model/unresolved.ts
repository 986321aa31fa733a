import { z } from 'zod';

/**
 * A declared relation the linker could not resolve. Items are kept as the mapper stored them
 * (older maps use `source_type` / `edge`, newer ones `source_name` / `edge_type`), so the schema
 * only insists on a target.
 */
export const UnresolvedReferenceSchema = z.looseObject({
  source: z.string().nullish(),
  target: z.string(),
});
export type UnresolvedReference = z.infer<typeof UnresolvedReferenceSchema>;

/** At most this many unresolved references are kept per map. */
export const MAX_UNRESOLVED_REFERENCES = 2000;
