import { randomUUID } from 'node:crypto';
import { type CloudAsset, EDGE_TYPES, type NetworkEdge, type UnresolvedReference } from '@cloudg/catalog';
import { buildAsset, relationsOf } from '../model/asset-builder.js';
import { IdentifierIndex } from './identifier-index.js';

/** At most this many unresolved references are kept per run (INVENTORY_REFERENCE.md section 11). */
export const UNRESOLVED_CAP = 2000;

const KNOWN_EDGE_TYPES: ReadonlySet<string> = new Set(EDGE_TYPES);

export interface LinkResult {
  /** Edges the linker created (never the seeded ones). */
  edges: NetworkEdge[];
  /** `CLOUD_ACCOUNT` placeholders for accounts that were referenced but not mapped. */
  externalAssets: CloudAsset[];
  unresolved: UnresolvedReference[];
}

export function edgeKey(source: string, target: string, type: string): string {
  return `${source}\u0000${target}\u0000${type}`;
}

/** The optional fields of an edge (NetworkEdge's index signature defeats `Partial<Omit<...>>`). */
export interface EdgeFields {
  relationship?: string | null;
  properties?: Record<string, unknown>;
  description?: string | null;
  ports?: number[];
  port_range?: string | null;
  protocol?: string | null;
  cidr?: string | null;
  direction?: string;
}

export function makeEdge(
  source: string,
  target: string,
  edgeType: string,
  extra: EdgeFields = {},
): NetworkEdge {
  return {
    id: randomUUID(),
    source_id: source,
    target_id: target,
    edge_type: edgeType,
    relationship: extra.relationship ?? null,
    properties: extra.properties ?? {},
    description: extra.description ?? null,
    ports: extra.ports ?? [],
    port_range: extra.port_range ?? null,
    protocol: extra.protocol ?? null,
    cidr: extra.cidr ?? null,
    direction: extra.direction ?? 'ingress',
  };
}

const AWS_ACCOUNT_IN_ARN = /^arn:aws[a-z-]*:[^:]*:[^:]*:(\d{12}):/;

/** The AWS account a reference lives in, when it names one (an ARN or a bare account id). */
function referencedAwsAccount(target: string): string | null {
  if (/^\d{12}$/.test(target)) return target;
  return AWS_ACCOUNT_IN_ARN.exec(target)?.[1] ?? null;
}

/**
 * Turns the relations collectors declared into typed edges (INVENTORY_REFERENCE.md sections 7
 * and 21.1). A target resolves by any identifier of the index; a bare account id or an ARN in
 * an account that was not mapped becomes an edge to an external account placeholder (the
 * original target kept in `properties.external_reference`); anything else that resolves to
 * nothing is reported as unresolved, capped at 2000.
 */
export class RelationshipLinker {
  readonly #index: IdentifierIndex;
  readonly #assets: readonly CloudAsset[];
  readonly #mappedAccounts: ReadonlySet<string>;
  readonly #seen = new Set<string>();
  readonly #external = new Map<string, CloudAsset>();

  constructor(assets: readonly CloudAsset[]) {
    this.#assets = assets;
    this.#index = new IdentifierIndex(assets);
    this.#mappedAccounts = new Set(
      assets.filter((a) => a.provider === 'AWS' && a.account_id).map((a) => a.account_id as string),
    );
  }

  /** Edges that exist already (collector network edges): the linker will not duplicate them. */
  seedExisting(edges: readonly NetworkEdge[]): void {
    for (const e of edges) this.#seen.add(edgeKey(e.source_id, e.target_id, e.edge_type));
  }

  resolve(identifier: string, context?: CloudAsset): string | null {
    return this.#index.resolve(identifier, context);
  }

  link(signal?: AbortSignal): LinkResult {
    const edges: NetworkEdge[] = [];
    const unresolved: UnresolvedReference[] = [];
    for (const asset of this.#assets) {
      signal?.throwIfAborted();
      for (const relation of relationsOf(asset)) {
        const edgeType = KNOWN_EDGE_TYPES.has(relation.edge) ? relation.edge : 'REFERENCES';
        let other = this.#index.resolve(relation.target, asset);
        const properties: Record<string, unknown> = { ...(relation.properties ?? {}) };
        if (other === null) {
          const account = referencedAwsAccount(relation.target);
          if (account !== null && !this.#mappedAccounts.has(account)) {
            other = this.#externalAccount(account).id;
            properties.external_reference = relation.target;
          }
        }
        if (other === null) {
          if (unresolved.length < UNRESOLVED_CAP)
            unresolved.push({
              source: asset.arn ?? asset.id,
              source_name: asset.name,
              target: relation.target,
              edge_type: edgeType,
            });
          continue;
        }
        if (other === asset.id) continue;
        const [source, target] = relation.reverse ? [other, asset.id] : [asset.id, other];
        const key = edgeKey(source, target, edgeType);
        if (this.#seen.has(key)) continue;
        this.#seen.add(key);
        edges.push(
          makeEdge(source, target, edgeType, {
            relationship: relation.relationship ?? null,
            description: relation.description ?? null,
            properties,
          }),
        );
      }
    }
    return { edges, externalAssets: [...this.#external.values()], unresolved };
  }

  #externalAccount(account: string): CloudAsset {
    const existing = this.#external.get(account);
    if (existing) return existing;
    const placeholder = buildAsset({
      arn: `arn:aws:iam::${account}:root`,
      name: `external account ${account}`,
      asset_type: 'CLOUD_ACCOUNT',
      provider: 'AWS',
      account_id: account,
      metadata: { account_id: account, external: true, discovered_via: 'cross-account reference' },
    });
    this.#external.set(account, placeholder);
    this.#index.add(placeholder);
    return placeholder;
  }
}
