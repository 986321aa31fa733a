import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset, relationsOf } from '../model/asset-builder.js';
import { type Relation, rel } from '../model/relation.js';

const PRINCIPAL_TYPES: Record<string, string> = {
  user: 'IDENTITY_USER',
  group: 'IDENTITY_GROUP',
  serviceAccount: 'SERVICE_ACCOUNT',
  domain: 'IDENTITY_GROUP',
  projectOwner: 'IDENTITY_GROUP',
  projectEditor: 'IDENTITY_GROUP',
  projectViewer: 'IDENTITY_GROUP',
};

/**
 * The asset type and principal type of a member. Workload and workforce identity federation
 * members (`principal://...`, `principalSet://...`) are identities from an outside provider
 * (IDENTITY_PROVIDER); any other kind stands for a set of people (IDENTITY_GROUP), as in the
 * reference (INVENTORY_INTERNALS.md 9.5).
 */
function principalKind(member: string): { assetType: string; kind: string } {
  if (member.startsWith('principalSet://')) return { assetType: 'IDENTITY_PROVIDER', kind: 'principalSet' };
  if (member.startsWith('principal://')) return { assetType: 'IDENTITY_PROVIDER', kind: 'principal' };
  const kind = member.split(':')[0] || 'unknown';
  return { assetType: PRINCIPAL_TYPES[kind] ?? 'IDENTITY_GROUP', kind };
}

/**
 * Roles that let a member act as a service account (INVENTORY_INTERNALS.md 9.5: token creator,
 * service account user, workload identity user): granted on a service account, they are an
 * `ASSUMES_ROLE` edge to it rather than an access grant.
 */
export const IMPERSONATION_ROLES: ReadonlySet<string> = new Set([
  'roles/iam.serviceAccountTokenCreator',
  'roles/iam.serviceAccountUser',
  'roles/iam.workloadIdentityUser',
]);

/** `allUsers` and `allAuthenticatedUsers`: anyone on the internet (with a Google account). */
export function isPublicMember(member: string): boolean {
  return member === 'allUsers' || member === 'allAuthenticatedUsers';
}

/** The email of a `serviceAccount:` member, or null. */
function serviceAccountEmail(member: string): string | null {
  return member.startsWith('serviceAccount:') ? member.slice('serviceAccount:'.length) || null : null;
}

/** The project a user-managed service account lives in, from its email; null for others. */
function homeProject(email: string): string | null {
  const [, domain = ''] = email.split('@');
  return domain.endsWith('.iam.gserviceaccount.com')
    ? domain.slice(0, -'.iam.gserviceaccount.com'.length)
    : null;
}

/**
 * The principal placeholder of an IAM member (INVENTORY_REFERENCE.md 3.3): `gcp-principal:<member>`,
 * `placeholder: true`, the member itself as an alias so `serviceAccount:<email>` references
 * resolve, carrying the relations its bindings declare. Two policies naming the same member in
 * different tasks make two placeholders with one `arn`, which the engine merges; a placeholder for
 * a service account collected in another project is folded into it by the engine too.
 */
export function principalAsset(member: string, rels: Relation[]): CloudAsset {
  const { assetType, kind } = principalKind(member);
  const federated = kind === 'principal' || kind === 'principalSet';
  const email = serviceAccountEmail(member);
  const roles = [
    ...new Set(rels.flatMap((r) => (r.properties?.roles as string[] | undefined) ?? [r.properties?.role])),
  ];
  return buildAsset({
    arn: `gcp-principal:${member}`,
    name: federated ? member : member.split(':').slice(1).join(':') || member,
    asset_type: assetType,
    provider: 'GCP',
    account_id: email ? homeProject(email) : null,
    metadata: {
      member,
      principal_type: kind,
      placeholder: true,
      discovered_via: 'iam_policy',
      email: email ?? undefined,
      roles: roles.filter((r): r is string => typeof r === 'string'),
    },
    aliases: [member, ...(email ? [email] : [])],
    relations: rels,
  });
}

interface Grant {
  member: string;
  resource: string;
  edge: 'GRANTS_ACCESS' | 'ASSUMES_ROLE';
  roles: string[];
  conditions: string[];
}

export interface PolicyBinding {
  role?: string;
  members?: string[];
  condition?: unknown;
}

/** One public binding of a policy: the resource is open to `member` with `role`. */
export interface PublicGrant {
  member: string;
  role: string;
}

/**
 * Turns IAM policies into relations on their principals (INVENTORY_INTERNALS.md 9.5), one per
 * principal, resource and edge with every role the member holds there. A principal that was
 * collected (a service account of this project, or a placeholder an earlier task made) carries
 * the relation itself; any other member becomes a placeholder. `allUsers` and
 * `allAuthenticatedUsers` make no principal: `bind` returns them for the caller to mark the
 * resource exposed. `deleted:` members are gone and make nothing.
 */
export class PolicyBinder {
  readonly #known = new Map<string, CloudAsset>();
  readonly #grants = new Map<string, Grant>();

  constructor(collected: readonly CloudAsset[]) {
    for (const asset of collected) {
      if (asset.provider !== 'GCP') continue;
      const aliases = Array.isArray(asset.metadata.aliases) ? asset.metadata.aliases : [];
      for (const id of [asset.arn, ...aliases])
        if (typeof id === 'string' && id && !this.#known.has(id.toLowerCase()))
          this.#known.set(id.toLowerCase(), asset);
    }
  }

  /**
   * Bind one resource's policy. Impersonation roles are `ASSUMES_ROLE` to the resource when it is
   * a service account (`serviceAccount: true`). `actAs` names the service accounts a binding on
   * this resource also lets a member act as: on a project, an impersonation role covers every
   * service account in it, which the reference leaves as a plain grant to the project; here the
   * grant stays and each of the project's collected service accounts gets the `ASSUMES_ROLE` edge
   * too, so paths through impersonation are not lost.
   */
  bind(
    resource: string,
    bindings: readonly PolicyBinding[] | undefined,
    options: { serviceAccount?: boolean; actAs?: readonly string[] } = {},
  ): PublicGrant[] {
    const open: PublicGrant[] = [];
    for (const binding of bindings ?? []) {
      const role = binding.role ?? '';
      const condition = conditionTitle(binding.condition);
      const impersonation = IMPERSONATION_ROLES.has(role);
      for (const member of binding.members ?? []) {
        if (typeof member !== 'string' || member.startsWith('deleted:')) continue;
        if (isPublicMember(member)) {
          if (!open.some((g) => g.member === member && g.role === role)) open.push({ member, role });
          continue;
        }
        const edge = impersonation && options.serviceAccount ? 'ASSUMES_ROLE' : 'GRANTS_ACCESS';
        this.#grant(member, resource, edge, role, condition);
        if (impersonation)
          for (const account of options.actAs ?? [])
            if (account !== resource) this.#grant(member, account, 'ASSUMES_ROLE', role, condition);
      }
    }
    return open;
  }

  /**
   * Emit the relations: appended to the collected principals they belong to, or on new
   * placeholders, which are returned for the task to add.
   */
  finish(): CloudAsset[] {
    const fresh = new Map<string, Relation[]>();
    for (const grant of this.#grants.values()) {
      const assumes = grant.edge === 'ASSUMES_ROLE';
      const relation = rel(
        grant.resource,
        grant.edge,
        assumes ? 'ROLE_ASSUMES_ROLE' : 'POLICY_ALLOWS_ACTION',
        {
          description: assumes
            ? `may act as this service account (${grant.roles.join(', ')})`
            : `granted ${grant.roles.join(', ')}`,
          properties: { role: grant.roles[0], roles: grant.roles, condition: grant.conditions.join(', ') },
        },
      );
      if (!relation) continue;
      const known = this.#principal(grant.member);
      if (known) {
        if (known.arn === grant.resource) continue; // a service account's grant on itself
        known.metadata.relations = [...relationsOf(known), relation];
        if (known.metadata.placeholder === true && Array.isArray(known.metadata.roles))
          known.metadata.roles = [...new Set([...known.metadata.roles, ...grant.roles])];
      } else fresh.set(grant.member, [...(fresh.get(grant.member) ?? []), relation]);
    }
    this.#grants.clear();
    return [...fresh].map(([member, rels]) => principalAsset(member, rels));
  }

  #principal(member: string): CloudAsset | undefined {
    return this.#known.get(member.toLowerCase()) ?? this.#known.get(`gcp-principal:${member}`.toLowerCase());
  }

  #grant(
    member: string,
    resource: string,
    edge: Grant['edge'],
    role: string,
    condition: string | null,
  ): void {
    const key = `${member}\n${resource}\n${edge}`;
    const grant = this.#grants.get(key) ?? { member, resource, edge, roles: [], conditions: [] };
    if (role && !grant.roles.includes(role)) grant.roles.push(role);
    if (condition && !grant.conditions.includes(condition)) grant.conditions.push(condition);
    this.#grants.set(key, grant);
  }
}

function conditionTitle(condition: unknown): string | null {
  if (typeof condition !== 'object' || condition === null) return null;
  const title = (condition as { title?: unknown }).title;
  return typeof title === 'string' && title ? title : 'conditional';
}
