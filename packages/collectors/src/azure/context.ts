import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import type { Governor, TaskLedger } from '../governor/governor.js';
import type { AzureClientOf, AzureClients, AzureServiceName } from './clients.js';

/**
 * A grant to an Entra principal on a scope, linked once every task has run: a role assignment
 * (the authorization task), or a Key Vault access policy (`relationship` and `properties` say
 * which permissions).
 */
export interface RoleGrant {
  principalId: string;
  principalType: string | undefined;
  scope: string;
  roleDefinitionId: string | undefined;
  assignmentId: string | undefined;
  /** The edge's relationship; `POLICY_ALLOWS_ACTION`, the reference's for role assignments, when absent. */
  relationship?: string;
  /** The edge's properties; the role assignment's fields when absent. */
  properties?: Record<string, unknown>;
}

export interface AzureTaskOutput {
  assets: CloudAsset[];
  edges?: NetworkEdge[];
  grants?: RoleGrant[];
}

export interface AzureTaskContext {
  subscription: string;
  signal: AbortSignal;
  client<S extends AzureServiceName>(service: S): AzureClientOf<S>;
  /** Send one request (or fetch one page) through the governor. */
  call<T>(service: AzureServiceName, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  partial(message: string): void;
}

export interface AzureTask {
  /** Its coverage entry; SERVICE_FAMILY_TASKS (src/families.ts) says which families select it. */
  name: string;
  run(ctx: AzureTaskContext): Promise<AzureTaskOutput>;
}

export function makeAzureContext(options: {
  subscription: string;
  clients: AzureClients;
  governor: Governor;
  signal: AbortSignal;
  ledger: TaskLedger;
  partials: string[];
}): AzureTaskContext {
  const { subscription, clients, governor, signal, ledger, partials } = options;
  return {
    subscription,
    signal,
    client: (service) => clients.get(service, subscription),
    call: (service, fn) =>
      governor.call(
        { provider: 'azure', account: subscription.toLowerCase(), region: null, service },
        () => fn(signal),
        signal,
        ledger,
      ),
    partial: (message) => partials.push(message),
  };
}

/**
 * A paged ARM listing. Each page is one governed request made by a fresh `byPage()` iterator
 * started at the previous page's continuation token: an SDK iterator that threw is finished, so
 * a retry must start a new one at the same token, or the listing would end silently.
 * `continuation` is the client package's `getContinuationToken`.
 */
export async function listAll<T>(
  ctx: AzureTaskContext,
  service: AzureServiceName,
  list: () => { byPage(settings?: { continuationToken?: string }): AsyncIterableIterator<T[]> },
  continuation: (page: unknown) => string | undefined,
  limit = 10_000,
): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (let i = 0; i < limit; i += 1) {
    ctx.signal.throwIfAborted();
    const start = token;
    const page = await ctx.call(service, () =>
      list()
        .byPage(start === undefined ? undefined : { continuationToken: start })
        .next(),
    );
    if (page.done) return out;
    out.push(...page.value);
    const next = continuation(page.value);
    if (!next || next === token) return out;
    token = next;
  }
  return out;
}

/** The parts of an ARM resource id: subscription, resource group, name. */
export function parseResourceId(id: string): { subscription: string; resourceGroup: string; name: string } {
  const parts = id.split('/');
  const at = (key: string) => parts[parts.findIndex((p) => p.toLowerCase() === key) + 1] ?? '';
  return {
    subscription: at('subscriptions'),
    resourceGroup: at('resourcegroups'),
    name: parts[parts.length - 1] ?? '',
  };
}

/**
 * Is a resource open to the internet at the network level? Public network access not disabled
 * and no deny-by-default rule set (the reference's "public network access without a deny ACL"),
 * or an IP rule that admits everyone.
 */
export function publicNetworkOpen(
  publicNetworkAccess: string | undefined,
  defaultAction: string | undefined,
  ipRules: readonly string[],
): boolean {
  if (publicNetworkAccess?.toLowerCase() === 'disabled') return false;
  return defaultAction?.toLowerCase() !== 'deny' || ipRules.some((r) => r === '0.0.0.0/0' || r === '::/0');
}

/** The host of a URL, lower case (`https://hub-kv.vault.azure.net/` -> `hub-kv.vault.azure.net`), or null. */
export function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

export function azureTags(tags: Record<string, string> | undefined): Record<string, string> {
  return { ...(tags ?? {}) };
}
