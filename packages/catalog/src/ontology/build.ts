import { DataFactory, type Literal, type NamedNode, type Quad } from 'n3';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { findingRiskScore } from '../model/finding.js';
import { type AssetRelation, assetRelations, KeyIndex } from './asset-relations.js';
import { classOf, schemaClasses } from './classes.js';
import { inferRelations } from './infer.js';
import { resourceIri, tagLocal } from './iri.js';
import { append } from './multimap.js';
import { type ObjectTerm, Ontology, type RelationTriple, type SubjectTerm } from './ontology.js';
import {
  CLOUD_RESOURCE,
  CM,
  CMP,
  COMPLIANCE_CONTROL,
  DATA_PROPERTIES,
  EDGE_METADATA,
  OWL,
  RDF_TYPE,
  RDFS,
  RELATION_GROUPS,
  RELATION_TYPES_BY_GROUP,
  SECURITY_FINDING,
  SUPPORT_CLASSES,
  TAG_VALUE,
  XSD,
} from './vocabulary.js';

const { namedNode, literal, blankNode, quad } = DataFactory;

/** How often (in assets, edges or findings) the build yields to the event loop and checks the signal. */
const CHUNK = 2000;

export interface BuildOptions {
  signal?: AbortSignal;
  /** Called as the build goes: work done and total (assets + edges + findings). */
  onProgress?: (done: number, total: number) => void;
}

/** Data properties with few distinct values, whose literals are shared. */
const SHARED_VALUES = new Set([
  'hasProvider',
  'hasRegion',
  'hasAccountId',
  'isInternetExposed',
  'hasSeverity',
  'hasRiskScore',
  'hasProtocol',
  'hasCIDR',
  'hasPort',
]);

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes triples and keeps the counts and indexes the tools need. Relation triples are
 * deduplicated (an RDF graph is a set); literal triples are unique by construction because each
 * subject is written once.
 */
class Writer {
  readonly quads: Quad[] = [];
  readonly relations: RelationTriple[] = [];
  readonly names = new Map<string, string>();
  readonly predicates = new Map<string, number>();
  readonly classes = new Set<string>();
  individuals = 0;
  #nodes = new Map<string, NamedNode>();
  #properties = new Map<string, NamedNode>();
  #literals = new Map<string, Literal>();
  #relationKeys = new Set<string>();
  readonly #type = namedNode(RDF_TYPE);
  readonly #label = namedNode(`${RDFS}label`);

  node(iri: string): NamedNode {
    const known = this.#nodes.get(iri);
    if (known) return known;
    const n = namedNode(iri);
    this.#nodes.set(iri, n);
    return n;
  }

  add(s: SubjectTerm, p: NamedNode, o: ObjectTerm): void {
    this.quads.push(quad(s, p, o));
  }

  /** `s rdf:type cm:<cls>` for an individual, counting it and its class. */
  individual(s: SubjectTerm, cls: string): void {
    this.add(s, this.#type, this.node(CM + cls));
    this.classes.add(cls);
    this.individuals += 1;
  }

  label(s: SubjectTerm, text: string): void {
    this.add(s, this.#label, literal(text));
  }

  /** The `cmp:` property of a local name (looked up without building the IRI each time). */
  property(name: string): NamedNode {
    const known = this.#properties.get(name);
    if (known) return known;
    const n = this.node(CMP + name);
    this.#properties.set(name, n);
    return n;
  }

  /**
   * A `cmp:` data property. Values of the few-valued properties (provider, region, account,
   * flags, severities...) share one literal object each: a million triples allocate less.
   */
  data(s: SubjectTerm, property: string, value: string, datatype?: string): void {
    let lit: Literal | undefined;
    if (SHARED_VALUES.has(property)) {
      const key = `${property}\u0001${value}`;
      lit = this.#literals.get(key);
      if (!lit) {
        lit = datatype === undefined ? literal(value) : literal(value, this.node(datatype));
        this.#literals.set(key, lit);
      }
    } else lit = datatype === undefined ? literal(value) : literal(value, this.node(datatype));
    this.add(s, this.property(property), lit);
    this.predicates.set(property, (this.predicates.get(property) ?? 0) + 1);
    if (property === 'hasName' && s.termType === 'NamedNode') this.names.set(s.value, value);
  }

  /**
   * A relation between two named nodes; repeats are dropped, except where the caller knows the
   * triple is new (`unique`: one FINDING_AFFECTS per finding), which saves a key per triple.
   */
  relation(subject: string, relation: string, object: string, unique = false): void {
    if (!unique) {
      const key = `${subject}\u0001${relation}\u0001${object}`;
      if (this.#relationKeys.has(key)) return;
      this.#relationKeys.add(key);
    }
    this.add(this.node(subject), this.property(relation), this.node(object));
    this.relations.push({ subject, relation, object });
    this.predicates.set(relation, (this.predicates.get(relation) ?? 0) + 1);
  }
}

function writeSchema(w: Writer, extraTypes: Iterable<string>): void {
  const type = w.node(RDF_TYPE);
  const label = w.node(`${RDFS}label`);
  const subClassOf = w.node(`${RDFS}subClassOf`);
  const range = w.node(`${RDFS}range`);
  const owlClass = w.node(`${OWL}Class`);
  const root = w.node(CM + CLOUD_RESOURCE);
  w.add(root, type, owlClass);
  w.add(root, label, literal(CLOUD_RESOURCE));
  const classes = new Set([...schemaClasses(extraTypes), ...SUPPORT_CLASSES]);
  classes.delete(CLOUD_RESOURCE);
  for (const cls of [...classes].sort()) {
    const node = w.node(CM + cls);
    w.add(node, type, owlClass);
    w.add(node, label, literal(cls));
    w.add(node, subClassOf, root);
  }
  const groupProp = w.node(`${CM}relationGroup`);
  for (const group of RELATION_GROUPS) {
    for (const rel of RELATION_TYPES_BY_GROUP[group]) {
      const node = w.node(CMP + rel);
      w.add(node, type, w.node(`${OWL}ObjectProperty`));
      w.add(node, label, literal(rel));
      w.add(node, groupProp, literal(group));
    }
  }
  for (const [prop, datatype] of Object.entries(DATA_PROPERTIES)) {
    const node = w.node(CMP + prop);
    w.add(node, type, w.node(`${OWL}DatatypeProperty`));
    w.add(node, label, literal(prop));
    w.add(node, range, w.node(datatype));
  }
  for (const prop of ['fromNode', 'toNode']) {
    const node = w.node(CM + prop);
    w.add(node, type, w.node(`${OWL}ObjectProperty`));
    w.add(node, label, literal(prop));
  }
}

function writeAsset(w: Writer, asset: CloudAsset, tagNodes: Set<string>): void {
  const s = w.node(resourceIri(asset.id));
  w.individual(s, classOf(asset.asset_type));
  w.data(s, 'hasName', asset.name);
  w.data(s, 'hasProvider', asset.provider);
  w.data(s, 'hasRegion', asset.region);
  w.data(s, 'isInternetExposed', String(asset.is_internet_exposed === true), `${XSD}boolean`);
  if (asset.arn) w.data(s, 'hasARN', asset.arn);
  if (asset.account_id) w.data(s, 'hasAccountId', asset.account_id);
  for (const [key, value] of Object.entries(asset.tags)) {
    const local = tagLocal(key, value);
    const tag = resourceIri(local);
    if (!tagNodes.has(tag)) {
      tagNodes.add(tag);
      const node = w.node(tag);
      w.individual(node, TAG_VALUE);
      w.label(node, `${key}=${value}`);
    }
    w.relation(s.value, 'TAGGED_WITH', tag);
  }
}

/** Build the ontology of a dataset. Yields to the event loop every few thousand items. */
export async function buildOntology(dataset: Dataset, options: BuildOptions = {}): Promise<Ontology> {
  const { signal, onProgress } = options;
  const total = dataset.assets.length + dataset.edges.length + dataset.findings.length;
  let done = 0;
  const step = async () => {
    done += 1;
    if (done % CHUNK === 0) {
      onProgress?.(done, total);
      await yieldNow();
      signal?.throwIfAborted();
    }
  };
  signal?.throwIfAborted();
  const w = new Writer();
  const knownTypes = new Set(dataset.assets.map((a) => a.asset_type));
  writeSchema(w, knownTypes);
  const schemaTriples = w.quads.length;

  const byId = new Map<string, CloudAsset>();
  const tagNodes = new Set<string>();
  for (const asset of dataset.assets) {
    await step();
    if (byId.has(asset.id)) continue;
    byId.set(asset.id, asset);
    writeAsset(w, asset, tagNodes);
  }

  // Endpoints that are not assets (0.0.0.0/0, a service tag) become cm:CloudResource individuals.
  const placeholders = new Set<string>();
  const endpoint = (id: string): string => {
    const iri = resourceIri(id);
    if (!byId.has(id) && !placeholders.has(id)) {
      placeholders.add(id);
      const node = w.node(iri);
      w.individual(node, CLOUD_RESOURCE);
      w.data(node, 'hasName', id);
    }
    return iri;
  };
  const fromNode = w.node(`${CM}fromNode`);
  const toNode = w.node(`${CM}toNode`);
  for (const edge of dataset.edges) {
    await step();
    const source = byId.get(edge.source_id) ?? null;
    const target = byId.get(edge.target_id) ?? null;
    const s = endpoint(edge.source_id);
    const o = endpoint(edge.target_id);
    for (const rel of inferRelations(edge, source, target)) w.relation(s, rel, o);
    const port = edge.port_range ?? (edge.ports.length ? edge.ports.join(',') : null);
    if (edge.cidr || port || edge.protocol) {
      const meta = blankNode();
      w.individual(meta, EDGE_METADATA);
      w.add(meta, fromNode, w.node(s));
      w.add(meta, toNode, w.node(o));
      if (edge.cidr) w.data(meta, 'hasCIDR', edge.cidr);
      if (port) w.data(meta, 'hasPort', port);
      if (edge.protocol) w.data(meta, 'hasProtocol', edge.protocol);
    }
  }

  const keys = new KeyIndex(dataset.assets);
  const matcher = dataset.indexes.matcher;
  const vpcMembers = new Map<string, CloudAsset[]>();
  for (const a of byId.values()) {
    const vpc = typeof a.metadata.vpc_id === 'string' ? a.metadata.vpc_id : null;
    if (!vpc) continue;
    append(vpcMembers, vpc, a);
  }
  const objectIri = (r: AssetRelation): string =>
    'asset' in r.object ? resourceIri(r.object.asset) : resourceIri(r.object.local);
  for (const asset of byId.values()) {
    for (const r of assetRelations(asset, keys, matcher, vpcMembers))
      w.relation(resourceIri(r.subject), r.relation, objectIri(r));
  }

  const frameworks = new Set<string>();
  const findingIds = new Set<string>();
  for (const finding of dataset.findings) {
    await step();
    if (findingIds.has(finding.id)) continue;
    findingIds.add(finding.id);
    const node = w.node(resourceIri(`finding_${finding.id}`));
    w.individual(node, SECURITY_FINDING);
    w.data(node, 'hasName', finding.title);
    w.data(node, 'hasSeverity', finding.severity);
    w.data(node, 'hasRiskScore', String(findingRiskScore(finding)), `${XSD}decimal`);
    const asset = dataset.indexes.assetOfFinding(finding);
    const raw = finding.resource_id ?? finding.resource_arn;
    const target = asset ? resourceIri(asset.id) : raw ? resourceIri(raw) : null;
    if (target === null) continue;
    w.relation(node.value, 'FINDING_AFFECTS', target, true);
    for (const fw of finding.compliance_frameworks) {
      const control = resourceIri(`compliance_${fw}`);
      if (!frameworks.has(fw)) {
        frameworks.add(fw);
        const c = w.node(control);
        w.individual(c, COMPLIANCE_CONTROL);
        w.label(c, fw);
      }
      w.relation(control, 'COMPLIANCE_GOVERNS', target);
    }
  }
  onProgress?.(total, total);

  return new Ontology({
    key: `${dataset.loadId}:${dataset.version}`,
    quads: w.quads,
    relations: w.relations,
    names: w.names,
    counts: {
      schemaTriples,
      classesUsed: w.classes.size,
      individuals: w.individuals,
      predicates: w.predicates,
    },
  });
}
