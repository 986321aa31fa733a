/**
 * cloudg resource URIs. Scheme, collection and suffix (`/neighbors`, `/findings`, `/summary`)
 * stay; the asset reference inside is pseudonymised as the entity it looks like, so it equals
 * the pseudonym the same value gets as an asset `id`; dataset names become `ds-<10 hex>`.
 */
import { isArn } from './arn.js';
import { isAzureResourceId } from './azure.js';
import type { FormatContext } from './context.js';
import { isGcpResourceName } from './gcp.js';
import { looksLikeIp } from './ip.js';

const URI = /^cloudg:\/\/([a-z_]+)\/(.+)$/s;
const ASSET_SUFFIX = /\/(?:neighbors|findings|summary|relations|dependencies|dependents|compliance)$/;

/** The entity an asset reference is pseudonymised as. */
export function refEntity(ref: string): string {
  if (isArn(ref)) return 'aws_arn';
  if (isAzureResourceId(ref)) return 'azure_resource_id';
  if (isGcpResourceName(ref)) return 'gcp_resource_name';
  if (looksLikeIp(ref)) return 'ip_address';
  return 'resource_name';
}

export function formatCloudgUri(value: string, _entity: string, ctx: FormatContext): string | null {
  const m = URI.exec(value);
  if (!m) return null;
  const [, collection, rest] = m as unknown as [string, string, string];
  let out: string;
  if (collection === 'assets') {
    const suffix = ASSET_SUFFIX.exec(rest)?.[0] ?? '';
    const ref = rest.slice(0, rest.length - suffix.length);
    if (ref === '') return null;
    out = `cloudg://assets/${ctx.sub(ref, refEntity(ref))}${suffix}`;
  } else if (collection === 'datasets') {
    const slash = rest.indexOf('/');
    const name = slash < 0 ? rest : rest.slice(0, slash);
    out = `cloudg://datasets/${ctx.sub(name, 'dataset_name')}${slash < 0 ? '' : rest.slice(slash)}`;
  } else if (collection === 'owners') {
    out = `cloudg://owners/${ctx.sub(rest, 'person')}`;
  } else {
    return null;
  }
  return out === value ? null : out;
}
