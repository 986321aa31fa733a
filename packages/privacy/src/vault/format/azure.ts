/**
 * Azure resource ids: subscription and tenant GUIDs become v8 UUIDs, resource groups `rg-...`,
 * resource names `res-...`; provider namespaces and resource types stay.
 */
import type { FormatContext } from './context.js';
import { formatGeneric, isPlaceholder } from './simple.js';

export function isAzureResourceId(value: string): boolean {
  return /^\/(?:subscriptions|tenants|providers)\//i.test(value);
}

export function formatAzureResourceId(value: string, entity: string, ctx: FormatContext): string | null {
  if (!isAzureResourceId(value)) return formatGeneric(value, entity, ctx);
  const segs = value.split('/');
  // State: what the next segment is. After `providers` comes a namespace, then type/name pairs.
  let next: 'key' | 'namespace' | 'type' | 'name' = 'key';
  let valueEntity: string | null = null;
  for (let i = 1; i < segs.length; i++) {
    const seg = segs[i]!;
    const lower = seg.toLowerCase();
    if (lower === 'providers' && next !== 'name') {
      next = 'namespace';
      continue;
    }
    if (next === 'namespace') {
      next = 'type';
      continue;
    }
    if (next === 'type') {
      next = 'name';
      continue;
    }
    if (next === 'name') {
      if (!isPlaceholder(seg)) segs[i] = ctx.sub(seg, 'resource_name');
      next = 'type';
      continue;
    }
    // A top-level key: subscriptions, tenants, resourceGroups, managementGroups...
    if (valueEntity === null) {
      valueEntity =
        lower === 'subscriptions'
          ? 'azure_subscription_id'
          : lower === 'tenants'
            ? 'azure_tenant_id'
            : lower === 'resourcegroups'
              ? 'azure_resource_group'
              : 'resource_name';
      continue;
    }
    if (!isPlaceholder(seg)) segs[i] = ctx.sub(seg, valueEntity);
    valueEntity = null;
  }
  const out = segs.join('/');
  return out === value ? null : out;
}
