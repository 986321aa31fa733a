/**
 * GCP resource names (`//service/collection/value/...` or `collection/value/...`) and project
 * ids. Collection names stay; zones, regions, locations and `-` stay; projects become project
 * pseudonyms; numeric organizations, folders and billing accounts become same-length numbers;
 * everything else `res-...`.
 */
import type { FormatContext } from './context.js';
import { hexChars } from './encode.js';
import { formatGeneric, isPlaceholder } from './simple.js';

const PLACE_COLLECTIONS = new Set(['zones', 'regions', 'locations']);
const NUMERIC_COLLECTIONS: Readonly<Record<string, string>> = {
  organizations: 'gcp_organization_id',
  folders: 'gcp_folder_id',
  billingaccounts: 'gcp_billing_account',
};
const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

export function isGcpResourceName(value: string): boolean {
  return (
    /^\/\/[a-z0-9.-]+\.googleapis\.com\//.test(value) ||
    /^(?:projects|organizations|folders)\/[^/]+(?:\/|$)/.test(value)
  );
}

/** Project ids become `proj-<8 hex>` (a valid project id); project numbers same-length numbers. */
export function formatGcpProjectId(value: string, entity: string, ctx: FormatContext): string | null {
  if (isPlaceholder(value)) return null;
  if (/^\d+$/.test(value)) return ctx.sub(value, 'gcp_project_number');
  if (!PROJECT_ID.test(value) && !value.includes(':')) return formatGeneric(value, entity, ctx);
  return `proj-${hexChars(ctx.digest(entity, value), 8)}`;
}

export function formatGcpResourceName(value: string, entity: string, ctx: FormatContext): string | null {
  if (!isGcpResourceName(value)) return formatGeneric(value, entity, ctx);
  const head = value.startsWith('//') ? value.slice(0, value.indexOf('/', 2) + 1) : '';
  const segs = value.slice(head.length).split('/');
  for (let i = 1; i < segs.length; i += 2) {
    const collection = segs[i - 1]!.toLowerCase();
    const seg = segs[i]!;
    if (seg === '-' || isPlaceholder(seg) || PLACE_COLLECTIONS.has(collection)) continue;
    if (collection === 'projects')
      segs[i] = ctx.sub(seg, /^\d+$/.test(seg) ? 'gcp_project_number' : 'gcp_project_id');
    else if (NUMERIC_COLLECTIONS[collection] && /^\d+$/.test(seg))
      segs[i] = ctx.sub(seg, NUMERIC_COLLECTIONS[collection]);
    else segs[i] = ctx.sub(seg, 'resource_name');
  }
  // `//storage.googleapis.com/<bucket>`: a lone name with no collection before it.
  if (head !== '' && segs.length === 1 && !isPlaceholder(segs[0]!))
    segs[0] = ctx.sub(segs[0]!, 'resource_name');
  const out = head + segs.join('/');
  return out === value ? null : out;
}
