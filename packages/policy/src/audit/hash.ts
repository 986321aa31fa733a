/** Keyed hashes of argument values for the decision log. */
import { createHmac, randomBytes } from 'node:crypto';
import { canonicalJson } from '@cloudg/core';

/** A vault that can produce keyed digests (the policy's token vault). */
export interface HashingVault {
  hashValue(value: string): string;
}

export type ArgumentHasher = (args: Record<string, unknown>) => Record<string, string>;

/**
 * Hash each argument's canonical JSON, labelled `audit`, to 12 hex digits: with the
 * vault's hash key when there is a vault, so an auditor holding the key can check a value;
 * otherwise with a random key of this process.
 */
export function createArgumentHasher(vault?: HashingVault): ArgumentHasher {
  const key = randomBytes(32);
  const digest = vault
    ? (json: string) => vault.hashValue(`audit\u0000${json}`).slice(0, 12)
    : (json: string) => createHmac('sha256', key).update(`audit\u0000${json}`).digest('hex').slice(0, 12);
  return (args) => {
    const out: Record<string, string> = {};
    for (const name of Object.keys(args).sort()) {
      const value = args[name];
      if (value !== undefined) out[name] = digest(canonicalJson(value));
    }
    return out;
  };
}
