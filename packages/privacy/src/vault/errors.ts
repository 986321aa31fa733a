/**
 * Errors raised by the token vault, under the package's `PrivacyError`. Messages never quote
 * values or key material; details go in `data`.
 */
import { PrivacyError } from '../errors.js';

export type VaultErrorCode = 'vault_config' | 'vault_format' | 'vault_authentication' | 'vault_io';

export interface VaultErrorOptions {
  data?: Record<string, unknown>;
  cause?: unknown;
}

/** Base class of vault errors. */
export class VaultError extends PrivacyError {
  override readonly code: VaultErrorCode = 'vault_format';

  constructor(message: string, options: VaultErrorOptions = {}) {
    super('vault_format', message, options.data ?? {}, { cause: options.cause });
  }
}

/** Invalid vault options (for example a non-positive TTL). */
export class VaultConfigError extends VaultError {
  override readonly code = 'vault_config' as const;
}

/** A vault file or export document that is not `cloudg-vault/1` or is malformed. */
export class VaultFormatError extends VaultError {
  override readonly code = 'vault_format' as const;
}

/** The vault file could not be authenticated: wrong key or modified content. */
export class VaultAuthenticationError extends VaultError {
  override readonly code = 'vault_authentication' as const;

  constructor(options: VaultErrorOptions = {}) {
    super('Vault file authentication failed (wrong key or tampered file)', options);
  }
}

/** Reading or writing the vault file failed. */
export class VaultIoError extends VaultError {
  override readonly code = 'vault_io' as const;
}
