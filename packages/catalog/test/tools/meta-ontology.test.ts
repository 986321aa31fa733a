import { Layer, Registry } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/dataset/dataset.js';
import { type CloudAsset, CloudAssetSchema } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { buildOntology } from '../../src/ontology/build.js';
import { inferRelations } from '../../src/ontology/infer.js';
import { compactIri, resourceIri } from '../../src/ontology/iri.js';
import {
  isRelationType,
  RDF_TYPE,
  RELATION_GROUPS,
  RELATION_TYPES,
  RELATION_TYPES_BY_GROUP,
} from '../../src/ontology/vocabulary.js';
import { registerMetaTools } from '../../src/tools/meta/index.js';
import { ASSET_TYPES, EDGE_TYPE_ORDER } from '../../src/tools/meta/vocabulary/index.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { sampleWorkspace } from '../support/estate.js';

/**
 * The meta tools and the ontology must tell the same story. Every relation name `describe_schema`
 * and `explain_edge_type` give is one the ontology knows, `explain_edge_type` lists for each edge
 * type exactly the relations the ontology's rules produce for it, and `explain_asset_type` gives
 * the class the ontology types that asset with. These tests fail as soon as one side changes
 * without the other.
 */

const ACCOUNT_A = '111111111111';
const ACCOUNT_B = '222222222222';

function assetOf(type: string, id: string, account: string): CloudAsset {
  return CloudAssetSchema.parse({
    id,
    name: id,
    asset_type: type,
    provider: 'AWS',
    region: 'eu-west-1',
    account_id: account,
  });
}

/** An edge as the loader leaves it, built without the schema: the probes make a million of them. */
function edgeOf(fields: Partial<NetworkEdge> & { edge_type: string }): NetworkEdge {
  return {
    id: 'probe',
    source_id: 'source',
    target_id: 'target',
    relationship: null,
    properties: {},
    description: null,
    ports: [],
    port_range: null,
    protocol: null,
    cidr: null,
    direction: 'ingress',
    ...fields,
  };
}

/** Relation names a result of `explain_edge_type` gives: the list, or the UPPER_CASE words of the sentence. */
function namedRelations(value: unknown): { relations: Set<string>; strangers: string[] } {
  const words = Array.isArray(value)
    ? (value as string[])
    : (String(value).match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? []);
  const relations = new Set(words.filter(isRelationType));
  // A multi-word UPPER_CASE name that the ontology does not know (ROUTES_TO, PEERS_WITH...).
  const strangers = words.filter((w) => !isRelationType(w) && (Array.isArray(value) || w.includes('_')));
  return { relations, strangers };
}

/**
 * Edges of one type across the space the ontology's rules read: every ordered pair of catalogued
 * asset types (and a non-asset endpoint) in one account and across two, then every direction,
 * CIDR, far side, port shape and protocol of a filter rule. Yields the edge and its endpoints.
 */
const inA: (CloudAsset | null)[] = [null, ...ASSET_TYPES.map((t) => assetOf(t, `a-${t}`, ACCOUNT_A))];
const inB: (CloudAsset | null)[] = [null, ...ASSET_TYPES.map((t) => assetOf(t, `b-${t}`, ACCOUNT_B))];

function* probes(edgeType: string): Generator<[NetworkEdge, CloudAsset | null, CloudAsset | null]> {
  for (const targets of [inA, inB]) {
    for (const source of inA) {
      for (const target of targets) {
        const edge = edgeOf({
          edge_type: edgeType,
          source_id: source?.id ?? 'source',
          target_id: target?.id ?? 'target',
        });
        yield [edge, source, target];
      }
    }
  }
  const ports: Partial<NetworkEdge>[] = [
    {},
    { port_range: '22' },
    { port_range: '80' },
    { port_range: '443' },
    { port_range: '3389' },
    { port_range: '8080' },
    { port_range: '20-25' },
    { port_range: '0-65535' },
    { port_range: '*' },
    { ports: [443, 8443] },
  ];
  for (const direction of ['ingress', 'egress']) {
    for (const cidr of [null, '0.0.0.0/0', '::/0', '10.0.0.0/8']) {
      for (const far of ['0.0.0.0/0', 'Internet', '10.1.0.0/16', 'sg-x']) {
        for (const port of ports) {
          for (const protocol of [null, 'tcp', 'icmp', '-1']) {
            const ends =
              direction === 'egress'
                ? { source_id: 'sg-x', target_id: far }
                : { source_id: far, target_id: 'sg-x' };
            yield [edgeOf({ edge_type: edgeType, direction, cidr, protocol, ...ends, ...port }), null, null];
          }
        }
      }
    }
  }
}

/** What the ontology's rules produce for an edge type over the probe space, with one witness per relation. */
function produced(edgeType: string): Map<string, [NetworkEdge, CloudAsset | null, CloudAsset | null]> {
  const witnesses = new Map<string, [NetworkEdge, CloudAsset | null, CloudAsset | null]>();
  for (const probe of probes(edgeType)) {
    for (const relation of inferRelations(...probe))
      if (!witnesses.has(relation)) witnesses.set(relation, probe);
  }
  return witnesses;
}

/** A dataset holding only the witnesses, each between endpoints of its own (no tags, no metadata). */
function witnessDataset(
  edgeType: string,
  witnesses: Iterable<[NetworkEdge, CloudAsset | null, CloudAsset | null]>,
): Dataset {
  const assets: CloudAsset[] = [];
  const edges: NetworkEdge[] = [];
  let n = 0;
  for (const [edge, source, target] of witnesses) {
    n += 1;
    const own = (end: CloudAsset | null, id: string, side: string): string => {
      if (end === null) return id;
      const copy = assetOf(end.asset_type, `w${n}-${side}`, end.account_id ?? ACCOUNT_A);
      assets.push(copy);
      return copy.id;
    };
    edges.push({
      ...edge,
      source_id: own(source, edge.source_id, 's'),
      target_id: own(target, edge.target_id, 't'),
    });
  }
  return new Dataset({ name: `witness-${edgeType}`, kind: 'inventory', source: 'inline', assets, edges });
}

function layerOver(ws: Workspace): Layer<Workspace> {
  const registry = new Registry<Workspace>();
  registerMetaTools(registry);
  return new Layer<Workspace>({ app: ws, registry });
}

describe('meta tools agree with the ontology', () => {
  let layer: Layer<Workspace>;
  let ws: Workspace;
  beforeAll(async () => {
    ws = await sampleWorkspace();
    layer = layerOver(ws);
  });

  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await layer.callTool(tool, args);
    expect(result.isError).toBe(false);
    return result.structured as Record<string, unknown>;
  };

  it("describe_schema's relation types are the ontology's 64, group by group", async () => {
    const { relation_types } = await call('describe_schema', { section: 'relation_types' });
    expect(relation_types).toEqual(
      Object.fromEntries(RELATION_GROUPS.map((g) => [g, [...RELATION_TYPES_BY_GROUP[g]]])),
    );
    expect(Object.values(relation_types as Record<string, string[]>).flat()).toHaveLength(64);
    const all = await call('describe_schema', {});
    expect(all.relation_groups).toEqual(relation_types);
    const names = Object.values(all.relation_groups as Record<string, string[]>).flat();
    for (const stale of ['ROUTES_TO', 'PEERS_WITH', 'USES_IMAGE', 'MANAGED_BY', 'FEDERATED_BY'])
      expect(names).not.toContain(stale);
    expect(names).toEqual([...RELATION_TYPES]);
  });

  it('explain_edge_type lists, for every edge type, exactly the relations the ontology infers for it', async () => {
    for (const edgeType of EDGE_TYPE_ORDER) {
      const out = await call('explain_edge_type', { edge_type: edgeType });
      const { relations, strangers } = namedRelations(out.ontology_relations);
      expect(strangers, `${edgeType} names relations the ontology does not know`).toEqual([]);
      const fromRules = produced(edgeType);
      expect([...relations].sort(), edgeType).toEqual([...fromRules.keys()].sort());
      // And the ontology built from edges of that type holds exactly those relations.
      const ontology = await buildOntology(witnessDataset(edgeType, fromRules.values()));
      const built = new Set(ontology.relations.map((t) => t.relation));
      expect([...built].sort(), `${edgeType} in a built ontology`).toEqual([...relations].sort());
    }
  });

  it("explain_edge_type's description says truly what a declared relationship does", () => {
    const description = layer.getTool('explain_edge_type').description;
    expect(description).toContain(
      'replaces those relations on CONTAINS, ATTACHED_TO, REFERENCES and the typed inventory edges, and comes before them on the network and IAM edges',
    );
    // The nine typed inventory edge types (the reference's models page) and the three named ones.
    const replaced = new Set([
      'CONTAINS',
      'ATTACHED_TO',
      'REFERENCES',
      'INVOKES',
      'USES_IMAGE',
      'ASSUMES_ROLE',
      'GRANTS_ACCESS',
      'LOGS_TO',
      'PROTECTS',
      'MONITORS',
      'MANAGES',
      'GOVERNS',
    ]);
    for (const edgeType of EDGE_TYPE_ORDER) {
      const declared = edgeOf({
        edge_type: edgeType,
        relationship: 'READS_FROM',
        cidr: '0.0.0.0/0',
        port_range: '443',
      });
      const relations = inferRelations(declared, null, null);
      expect(relations[0], edgeType).toBe('READS_FROM');
      if (replaced.has(edgeType)) expect(relations, edgeType).toEqual(['READS_FROM']);
      else if (edgeType !== 'NACL_RULE') expect(relations.length, edgeType).toBeGreaterThan(1);
    }
  });

  it("explain_edge_type covers every relation the sample estate's edges give the ontology", async () => {
    const dataset = ws.get();
    const byId = new Map(dataset.assets.map((a) => [a.id, a]));
    let checked = 0;
    for (const edge of dataset.edges) {
      // A declared relationship is the collector's word, not the edge type's; the description says so.
      if (edge.relationship) continue;
      const out = await call('explain_edge_type', { edge_type: edge.edge_type });
      const { relations } = namedRelations(out.ontology_relations);
      const inferred = inferRelations(
        edge,
        byId.get(edge.source_id) ?? null,
        byId.get(edge.target_id) ?? null,
      );
      for (const r of inferred) expect(relations, `${edge.edge_type} -> ${r}`).toContain(r);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('explain_asset_type gives, for every asset type, the class the ontology types its individuals with', async () => {
    const assets = ASSET_TYPES.map((t) => assetOf(t, `x-${t}`, ACCOUNT_A));
    const ontology = await buildOntology(
      new Dataset({ name: 'types', kind: 'inventory', source: 'inline', assets, edges: [] }),
    );
    const classOfIndividual = new Map<string, string>();
    for (const q of ontology.quads)
      if (q.predicate.value === RDF_TYPE) classOfIndividual.set(q.subject.value, compactIri(q.object.value));
    for (const type of ASSET_TYPES) {
      const out = await call('explain_asset_type', { asset_type: type });
      expect(out.ontology_class, type).toBe(classOfIndividual.get(resourceIri(`x-${type}`)));
    }
  });

  it("gives EC2, VIRTUAL_MACHINE and GCE_INSTANCE the ontology's cm:ComputeInstance", async () => {
    // The reference's ontology section maps all three to cm:ComputeInstance; an older catalogue said cm:VirtualMachine.
    for (const type of ['EC2', 'VIRTUAL_MACHINE', 'GCE_INSTANCE']) {
      expect((await call('explain_asset_type', { asset_type: type })).ontology_class).toBe(
        'cm:ComputeInstance',
      );
    }
  });
});
