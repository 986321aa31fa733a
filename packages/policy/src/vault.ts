/** The token vault a policy owns, built from its `vault` section. */
import { TokenVault } from '@cloudg/privacy';
import type { PolicyConfig } from './schema/config.js';

/** The policy's own vault, from its `vault` section. */
export function createVault(
  config: PolicyConfig['vault'],
  env: Readonly<Record<string, string | undefined>> | undefined,
): TokenVault {
  return new TokenVault({
    key: config.key,
    keyEnv: config.key_env,
    scope: config.scope,
    ttlSeconds: config.ttl_seconds,
    path: config.path,
    autosave: config.autosave,
    encrypt: config.encrypt,
    ...(env ? { env } : {}),
  });
}
