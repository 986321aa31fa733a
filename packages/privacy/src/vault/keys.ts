/**
 * Key material. The raw key is never used directly: every purpose gets its own sub-key,
 * HMAC-SHA256(raw key, fixed label), so a leak of one (for example the hash strategy's
 * digests) says nothing about the others, and changing one construction never changes another.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { VaultConfigError } from './errors.js';
import { HmacSha256 } from './hmac.js';
import type { VaultKeySource } from './types.js';

export const DEFAULT_KEY_ENV = 'CLOUDG_MCP_VAULT_KEY';

const LABELS = {
  token: 'cloudg-vault/v1/tokenize',
  ip: 'cloudg-vault/v1/ip-permutation',
  hash: 'cloudg-vault/v1/hash-strategy',
  file: 'cloudg-vault/v1/file-aead',
  keyId: 'cloudg-vault/v1/key-id',
} as const;

/** The derived keys. Raw bytes are kept only where an API needs them (cipher keys). */
export interface VaultKeys {
  source: VaultKeySource;
  /** 12 hex characters identifying the key without revealing it. */
  keyId: string;
  /** HMAC for pseudonym derivation. */
  token: HmacSha256;
  /** HMAC deriving the per-namespace keys of the prefix-preserving IP permutation. */
  ip: HmacSha256;
  /** HMAC of the `hash` strategy. */
  hash: HmacSha256;
  /** AES-256-GCM key of the vault file (GCM's tag authenticates the file). */
  file: Buffer;
}

export interface KeyInput {
  key?: string | Uint8Array | null;
  keyEnv?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

function resolveRawKey(input: KeyInput): { raw: Buffer; source: VaultKeySource } {
  const { key } = input;
  if (key !== undefined && key !== null) {
    const raw = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
    if (raw.length === 0)
      throw new VaultConfigError('Vault key must not be empty', { data: { field: 'key' } });
    return { raw, source: 'config' };
  }
  const envName = input.keyEnv ?? DEFAULT_KEY_ENV;
  const fromEnv = (input.env ?? process.env)[envName];
  if (fromEnv !== undefined && fromEnv !== '') return { raw: Buffer.from(fromEnv, 'utf8'), source: 'env' };
  return { raw: randomBytes(32), source: 'random' };
}

function subKey(raw: Buffer, label: string): Buffer {
  return createHmac('sha256', raw).update(label, 'utf8').digest();
}

/** Resolve the raw key (option, then environment, then random) and derive every sub-key. */
export function deriveVaultKeys(input: KeyInput): VaultKeys {
  const { raw, source } = resolveRawKey(input);
  return {
    source,
    keyId: subKey(raw, LABELS.keyId).toString('hex').slice(0, 12),
    token: new HmacSha256(subKey(raw, LABELS.token)),
    ip: new HmacSha256(subKey(raw, LABELS.ip)),
    hash: new HmacSha256(subKey(raw, LABELS.hash)),
    file: subKey(raw, LABELS.file),
  };
}
