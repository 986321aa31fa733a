import type { BlankNode, Literal, NamedNode, Quad } from 'n3';
import { append } from './multimap.js';
import { type RelationGroup, relationGroupOf } from './vocabulary.js';

/** One relation between two nodes, as full IRIs, with the relation's name (`PROTECTED_BY_SG`). */
export interface RelationTriple {
  subject: string;
  relation: string;
  object: string;
}

export type SubjectTerm = NamedNode | BlankNode;
export type ObjectTerm = NamedNode | BlankNode | Literal;

/** Counts of what a build wrote, beside the triples themselves. */
export interface OntologyCounts {
  schemaTriples: number;
  classesUsed: number;
  individuals: number;
  /** `cmp:` predicates (relations and data properties) among the instance triples, by local name. */
  predicates: ReadonlyMap<string, number>;
}

/**
 * A built ontology: the triples (n3 quads in the default graph) and the indexes the tools read
 * without a SPARQL round trip: relation triples in the order they were written, names, and
 * adjacency by node.
 */
export class Ontology {
  readonly quads: readonly Quad[];
  readonly relations: readonly RelationTriple[];
  readonly names: ReadonlyMap<string, string>;
  readonly counts: OntologyCounts;
  /** Identifies this build (dataset load id and version); the SPARQL store is keyed by it. */
  readonly key: string;
  #outgoing: Map<string, RelationTriple[]> | undefined;
  #incoming: Map<string, RelationTriple[]> | undefined;
  #byGroup: Map<RelationGroup, RelationTriple[]> | undefined;

  constructor(init: {
    key: string;
    quads: Quad[];
    relations: RelationTriple[];
    names: Map<string, string>;
    counts: OntologyCounts;
  }) {
    this.key = init.key;
    this.quads = init.quads;
    this.relations = init.relations;
    this.names = init.names;
    this.counts = init.counts;
  }

  get size(): number {
    return this.quads.length;
  }

  /** Relations that start at a node, in the order they were written. */
  outgoing(iri: string): readonly RelationTriple[] {
    if (!this.#outgoing) this.#index();
    return this.#outgoing?.get(iri) ?? [];
  }

  /** Relations that end at a node, in the order they were written. */
  incoming(iri: string): readonly RelationTriple[] {
    if (!this.#incoming) this.#index();
    return this.#incoming?.get(iri) ?? [];
  }

  /** Relation triples of one group, relation type by relation type in the group's order. */
  inGroup(group: RelationGroup, order: readonly string[]): readonly RelationTriple[] {
    if (!this.#byGroup) {
      const map = new Map<RelationGroup, RelationTriple[]>();
      for (const t of this.relations) {
        const g = relationGroupOf(t.relation);
        if (g === undefined) continue;
        append(map, g, t);
      }
      this.#byGroup = map;
    }
    const rank = new Map(order.map((r, i) => [r, i]));
    // Stable sort: within one relation type, the order the triples were written.
    return [...(this.#byGroup.get(group) ?? [])].sort(
      (a, b) => (rank.get(a.relation) ?? 0) - (rank.get(b.relation) ?? 0),
    );
  }

  /** The `hasName` of a node, if it has one. */
  nameOf(iri: string): string | undefined {
    return this.names.get(iri);
  }

  #index(): void {
    const out = new Map<string, RelationTriple[]>();
    const inc = new Map<string, RelationTriple[]>();
    for (const t of this.relations) {
      append(out, t.subject, t);
      append(inc, t.object, t);
    }
    this.#outgoing = out;
    this.#incoming = inc;
  }
}
