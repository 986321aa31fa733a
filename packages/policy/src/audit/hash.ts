/**
 * Keyed hashes of argument values for the decision log. They come from the same keyed hash as
 * the JSONL audit log's (core's `createAuditHasher`: HMAC-SHA256 of the canonical JSON), cut to
 * 12 hex characters instead of 16, so a value can be followed from one trail to the other.
 */
import { randomBytes } from 'node:crypto';
import { AUDIT_SALT_ENV, type AuditHasher, createAuditHasher } from '@cloudg/core';

/** Hex characters the decision log keeps of the shared audit hash. */
export const DECISION_HASH_LENGTH = 12;

/** What the vault's hash key is asked for to derive the audit key (never a value from a call). */
const VAULT_AUDIT_KEY_LABEL = 'cloudg/audit-key';

/** A vault that can produce keyed digests (the policy's token vault). */
export interface HashingVault {
  hashValue(value: string): string;
}

export type ArgumentHasher = (args: Record<string, unknown>) => Record<string, string>;

/**
 * The key both audit trails hash with, in this order: the audit salt (`$CLOUDG_MCP_AUDIT_SALT`),
 * so an operator who set it gets the same hashes from the policy and the middleware; else a key
 * derived from the vault's hash key, stable across restarts when the vault key is; else a random
 * key of this process.
 */
export function createPolicyAuditHasher(
  vault: HashingVault | undefined,
  env: Readonly<Record<string, string | undefined>>,
): AuditHasher {
  const salt = env[AUDIT_SALT_ENV];
  if (salt) return createAuditHasher(salt);
  if (vault) return createAuditHasher(vault.hashValue(VAULT_AUDIT_KEY_LABEL));
  return createAuditHasher(randomBytes(32));
}

/** Each argument's audit hash, cut to the decision log's 12 hex characters, by sorted name. */
export function createArgumentHasher(hasher: AuditHasher): ArgumentHasher {
  return (args) => {
    const out: Record<string, string> = {};
    for (const name of Object.keys(args).sort()) {
      const value = args[name];
      if (value !== undefined) out[name] = hasher(value).slice(0, DECISION_HASH_LENGTH);
    }
    return out;
  };
}
