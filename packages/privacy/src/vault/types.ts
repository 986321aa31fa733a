/**
 * Public types of the token vault: options, entries, the export document and stats.
 * Field names of the export document and of `stats()` are snake_case because they are data
 * shown to clients and written to files, and must match the `cloudg-vault/1` format.
 */

/** One namespace for everyone, or one per principal id (`p:<id>`). */
export type VaultScope = 'global' | 'principal';

/** Where the raw key came from. */
export type VaultKeySource = 'config' | 'env' | 'random';

/** Options of {@link TokenVault}; mirrors the policy's `vault:` section (VaultConfig). */
export interface TokenVaultOptions {
  /** Raw key. A string is used as its UTF-8 bytes. Prefer `keyEnv`. */
  key?: string | Uint8Array | null;
  /** Environment variable read when `key` is not set. Default `CLOUDG_MCP_VAULT_KEY`. */
  keyEnv?: string;
  /** Default `global`. */
  scope?: VaultScope;
  /** Forget a mapping unused for this long. `null` (default) keeps mappings forever. */
  ttlSeconds?: number | null;
  /** Vault file. Loaded on creation when it exists; written by `save()`, `close()` and `autosaveIfNeeded()`. */
  path?: string | null;
  /** Let {@link TokenVault.autosaveIfNeeded} rewrite the file after a pass that issued pseudonyms. */
  autosave?: boolean;
  /** Encrypt and authenticate the file (AES-256-GCM). Default true. */
  encrypt?: boolean;
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  clock?: () => number;
  /** Environment to read `keyEnv` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Also save (when changed) from a process `exit` listener, for a script that has no shutdown
   * of its own. Default false: a library registers no process handler unasked, and the
   * application that owns shutdown calls `save()` or `close()` itself.
   */
  saveOnExit?: boolean;
}

/** Per-call namespace selection. Default namespace is `global`. */
export interface NamespaceOption {
  namespace?: string;
}

/** A mapping as stored by the vault. Times are Unix seconds (fractional). */
export interface VaultEntry {
  namespace: string;
  entity: string;
  real: string;
  pseudonym: string;
  created: number;
  lastUsed: number;
}

/** `[namespace, entity, real, pseudonym, created, last_used]`. */
export type VaultExportEntry = [string, string, string, string, number, number];

/** The plaintext export document, also the plaintext of an encrypted vault file. */
export interface VaultExport {
  format: 'cloudg-vault/1';
  key_id: string;
  entries: VaultExportEntry[];
}

/** The encrypted vault file. */
export interface EncryptedVaultFile {
  format: 'cloudg-vault/1';
  encrypted: true;
  key_id: string;
  alg: 'aes-256-gcm';
  /** 12 random bytes, base64. */
  nonce: string;
  /** Ciphertext of the JSON export, base64. */
  data: string;
  /** 16-byte GCM tag, base64. */
  tag: string;
}

export interface ImportOptions {
  /** Replace existing mappings of the same value or pseudonym. Default false. */
  overwrite?: boolean;
}

export interface VaultCounters {
  /** New mappings created by pseudonymize. */
  issued: number;
  /** pseudonymize calls answered from an existing mapping. */
  reused: number;
  /** Successful reversals. */
  detokenized: number;
  /** Reversal attempts that found nothing (including expired pseudonyms). */
  misses: number;
  /** Derived pseudonyms that clashed with another value's and were re-derived. */
  collisions: number;
  /** Values that fell back to the generic prefix-hex format after repeated collisions. */
  fallbacks: number;
  /** Mappings dropped because their TTL ran out. */
  expired: number;
  /** Mappings added by importMappings or load. */
  imported: number;
  saves: number;
  loads: number;
}

export interface VaultStats {
  key_source: VaultKeySource;
  key_id: string;
  scope: VaultScope;
  ttl_seconds: number | null;
  path: string | null;
  encrypt: boolean;
  autosave: boolean;
  entries: number;
  namespaces: Record<string, number>;
  entities: Record<string, number>;
  dirty: boolean;
  issued_since_save: number;
  counters: VaultCounters;
}
