import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * NetworkEdge: a directed edge `source verb target`. Endpoints are asset ids, except collector
 * network edges whose far side is a CIDR, a service tag or `*` (kept as given).
 */
export const NetworkEdgeSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    source_id: z.string().min(1),
    target_id: z.string().min(1),
    edge_type: z
      .string()
      .min(1)
      .transform((t) => t.toUpperCase()),
    relationship: z.string().nullish(),
    properties: z.record(z.string(), z.unknown()).nullish(),
    description: z.string().nullish(),
    ports: z.array(z.number().int()).nullish(),
    port_range: z.union([z.string(), z.number()]).nullish(),
    protocol: z.string().nullish(),
    cidr: z.string().nullish(),
    direction: z.string().nullish(),
  })
  .transform(
    (raw): NetworkEdge => ({
      ...raw,
      id: raw.id ?? randomUUID(),
      source_id: raw.source_id,
      target_id: raw.target_id,
      edge_type: raw.edge_type,
      relationship: raw.relationship ?? null,
      properties: raw.properties ?? {},
      description: raw.description ?? null,
      ports: raw.ports ?? [],
      port_range: raw.port_range === null || raw.port_range === undefined ? null : String(raw.port_range),
      protocol: raw.protocol ?? null,
      cidr: raw.cidr ?? null,
      direction: raw.direction || 'ingress',
    }),
  );

export interface NetworkEdge {
  id: string;
  source_id: string;
  target_id: string;
  edge_type: string;
  relationship: string | null;
  properties: Record<string, unknown>;
  description: string | null;
  ports: number[];
  port_range: string | null;
  protocol: string | null;
  cidr: string | null;
  direction: string;
  [extra: string]: unknown;
}

/** Edges added by the account hierarchy pass (`properties.hierarchy: true`). */
export function isHierarchyEdge(edge: NetworkEdge): boolean {
  return edge.properties.hierarchy === true;
}

/** The key edges are deduplicated on. */
export function edgeDedupKey(edge: NetworkEdge): string {
  return `${edge.source_id}\u0000${edge.target_id}\u0000${edge.edge_type}`;
}
