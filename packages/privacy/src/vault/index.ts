/**
 * The token vault: reversible, format-preserving pseudonyms (section 13 of the privacy spec).
 * Everything public about the vault is exported from here.
 */

export type { HeldShare } from './claim-held.js';
export {
  VaultAuthenticationError,
  VaultConfigError,
  VaultError,
  type VaultErrorCode,
  type VaultErrorOptions,
  VaultFormatError,
  VaultIoError,
} from './errors.js';
export { parseVaultExport, VAULT_FORMAT } from './export-document.js';
export { refEntity } from './format/cloudg-uri.js';
export { FORMATTED_ENTITIES } from './format/dispatch.js';
export { DEFAULT_KEY_ENV } from './keys.js';
export { createVaultSealer, VaultSealer } from './sealer.js';
export type {
  MappingKeys,
  SealedBatch,
  SharedAnswer,
  SharedClaim,
  SharedClock,
  SharedHolder,
  SharedUse,
  SharedVaultStore,
} from './shared-store.js';
export { saveAllOnExit } from './shutdown.js';
export {
  FORMAT_ATTEMPTS,
  GLOBAL_NAMESPACE,
  MAX_ATTEMPTS,
  type PseudonymizeOptions,
  TokenVault,
} from './token-vault.js';
export type {
  EncryptedVaultFile,
  ImportOptions,
  NamespaceOption,
  TokenVaultOptions,
  VaultCounters,
  VaultEntry,
  VaultExport,
  VaultExportEntry,
  VaultKeySource,
  VaultScope,
  VaultStats,
} from './types.js';
