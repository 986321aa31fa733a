import type { CloudgConfig } from '../config/schema.js';
import type { LiveProvider } from './engine.js';

/**
 * The live-guard scopes of a provider under a config: one per configured account, profile,
 * subscription, project or organization, or the bare provider name when the config names none.
 */
export function providerScopes(config: CloudgConfig, provider: LiveProvider): string[] {
  const out: string[] = [];
  if (provider === 'aws') {
    for (const a of config.aws.accounts) out.push(`aws/${a}`);
    if (out.length === 0 && config.aws.profile) out.push(`aws/profile:${config.aws.profile}`);
  } else if (provider === 'azure') {
    for (const s of config.azure.subscriptions) out.push(`azure/${s}`);
  } else {
    for (const p of config.gcp.projects) out.push(`gcp/${p}`);
    if (config.gcp.organization_id) out.push(`gcp/org:${config.gcp.organization_id}`);
  }
  return out.length > 0 ? out : [provider];
}

export function scopesOf(config: CloudgConfig, providers: readonly LiveProvider[]): string[] {
  return providers.flatMap((p) => providerScopes(config, p));
}
