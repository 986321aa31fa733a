import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../model/asset-builder.js';
import type { Relation } from '../model/relation.js';

const PRINCIPAL_TYPES: Record<string, string> = {
  user: 'IDENTITY_USER',
  group: 'IDENTITY_GROUP',
  serviceAccount: 'SERVICE_ACCOUNT',
  domain: 'IDENTITY_GROUP',
};

/** `allUsers` and `allAuthenticatedUsers`: anyone on the internet (with a Google account). */
export function isPublicMember(member: string): boolean {
  return member === 'allUsers' || member === 'allAuthenticatedUsers';
}

/**
 * The principal placeholder of an IAM member (INVENTORY_REFERENCE.md 3.3): `gcp-principal:<member>`,
 * the member itself as an alias so `serviceAccount:<email>` references resolve, carrying the
 * relations its bindings declare. Two resources' policies naming the same member make two
 * placeholders with one `arn`; the engine merges them and keeps both sets of relations.
 */
export function principalAsset(member: string, project: string, rels: Relation[]): CloudAsset {
  const kind = member.split(':')[0] ?? '';
  return buildAsset({
    arn: `gcp-principal:${member}`,
    name: member.split(':').slice(1).join(':') || member,
    asset_type: PRINCIPAL_TYPES[kind] ?? 'IDENTITY_USER',
    provider: 'GCP',
    account_id: kind === 'serviceAccount' ? project : null,
    metadata: {
      member,
      principal_type: kind,
      discovered_via: 'iam_policy',
      roles: rels.map((r) => r.properties?.role),
    },
    aliases: [member],
    relations: rels,
  });
}
