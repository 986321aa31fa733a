/**
 * The growing estate: assets and edges in the data model's own shapes (CloudAsset,
 * NetworkEdge), so the files are written by the same functions cloudg uses for its own output.
 * Every name gets a global sequence number, which keeps names unique across the estate: scanner
 * formats that only carry a name (ScoutSuite paths, Checkov addresses, Trivy artifacts) then
 * still resolve to exactly one asset.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import type { EdgeType } from '../../src/model/vocabulary.js';
import { type Account, type Cloud, identifierFor } from './clouds.js';
import type { Rng } from './random.js';

/** Where every asset of the estate says it was collected. */
export const COLLECTED_AT = '2026-01-15T12:00:00+00:00';

export interface AssetInit {
  type: string;
  account: Account;
  region: string;
  /** Base of the name; a sequence number is appended. */
  base: string;
  tags?: Record<string, string>;
  metadata?: Record<string, unknown>;
  exposed?: boolean;
  /** Identifier of the resource this one lives under (see `identifierFor`). */
  parent?: string;
  /** Use this identifier instead of deriving one. */
  arn?: string;
  /** Tenant-wide identities have no account. */
  noAccount?: boolean;
}

export interface EdgeInit {
  relationship?: string;
  properties?: Record<string, unknown>;
  description?: string;
  port_range?: string;
  protocol?: string;
  cidr?: string;
  direction?: 'ingress' | 'egress';
}

/** An asset whose every field the caller gives except the generated `id` and `collected_at`. */
export interface FixedAsset {
  arn: string | null;
  name: string;
  asset_type: string;
  provider: Cloud;
  region: string;
  account_id: string | null;
  tags: Record<string, string>;
  metadata: Record<string, unknown>;
  is_internet_exposed: boolean;
}

/** A rule source: an asset (a group admitting another group) or a CIDR / service tag. */
export type Endpoint = CloudAsset | string;

function endpointId(e: Endpoint): string {
  return typeof e === 'string' ? e : e.id;
}

/** Ports of a `port_range` such as `443`, `80,443` or `1024-65535` (ranges list their ends). */
function portsOf(range: string): number[] {
  const out: number[] = [];
  for (const part of range.split(',')) {
    const [lo, hi] = part.split('-').map(Number);
    if (lo !== undefined && Number.isInteger(lo)) out.push(lo);
    if (hi !== undefined && Number.isInteger(hi) && hi !== lo) out.push(hi);
  }
  return out;
}

export class EstateBuilder {
  readonly assets: CloudAsset[] = [];
  readonly edges: NetworkEdge[] = [];
  #seq = 0;

  constructor(readonly rng: Rng) {}

  get count(): number {
    return this.assets.length;
  }

  /** A unique name: `<base>-<n>`. */
  name(base: string): string {
    this.#seq += 1;
    return `${base}-${this.#seq}`;
  }

  add(init: AssetInit): CloudAsset {
    const name = this.name(init.base);
    const arn = init.arn ?? identifierFor(init.account, init.type, init.region, name, this.rng, init.parent);
    const asset: CloudAsset = {
      id: this.rng.uuid(),
      arn,
      name,
      asset_type: init.type,
      provider: init.account.cloud,
      region: init.region,
      account_id: init.noAccount ? null : init.account.id,
      tags: init.tags ?? {},
      metadata: init.metadata ?? {},
      collected_at: COLLECTED_AT,
      is_internet_exposed: init.exposed ?? false,
    };
    this.assets.push(asset);
    return asset;
  }

  /** An asset whose identity is fixed by the caller (accounts, the organization). */
  addFixed(asset: FixedAsset): CloudAsset {
    const full: CloudAsset = { id: this.rng.uuid(), ...asset, collected_at: COLLECTED_AT };
    this.assets.push(full);
    return full;
  }

  link(source: Endpoint, type: EdgeType, target: Endpoint, init: EdgeInit = {}): NetworkEdge {
    const edge: NetworkEdge = {
      id: this.rng.uuid(),
      source_id: endpointId(source),
      target_id: endpointId(target),
      edge_type: type,
      relationship: init.relationship ?? null,
      properties: init.properties ?? {},
      description: init.description ?? null,
      ports: init.port_range ? portsOf(init.port_range) : [],
      port_range: init.port_range ?? null,
      protocol: init.protocol ?? null,
      cidr: init.cidr ?? null,
      direction: init.direction ?? 'ingress',
    };
    this.edges.push(edge);
    return edge;
  }

  /**
   * An ingress rule into a group (or, on GCP, straight onto an instance): from a CIDR or service
   * tag (`cidr` set, as collectors write it) or from another group.
   */
  allow(from: Endpoint, to: CloudAsset, ports: string, protocol = 'TCP'): NetworkEdge {
    const cidr = typeof from === 'string' ? from : undefined;
    return this.link(from, 'SECURITY_GROUP_RULE', to, {
      port_range: ports,
      protocol,
      ...(cidr ? { cidr } : {}),
      direction: 'ingress',
    });
  }

  /** The account → top-level resource edge of the hierarchy pass (`properties.hierarchy`). */
  contain(account: Account, asset: CloudAsset): void {
    this.link(account.assetId, 'CONTAINS', asset, { properties: { hierarchy: true } });
  }
}
