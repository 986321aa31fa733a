import type { CloudgConfig, ConfigProvider } from './schema.js';

/** The cooldown between live collections of one of `provider`'s scopes: its override, else the global one. */
export function liveCooldownSeconds(config: CloudgConfig, provider: ConfigProvider): number {
  return config.ratelimit[provider].live_cooldown_seconds ?? config.ratelimit.live_cooldown_seconds;
}
