/**
 * Sealing for state the vault's key protects outside the process (the stores replicas share,
 * issue 20): AES-256-GCM, the vault file's AEAD, with a fresh 12-byte nonce per value, and
 * HMAC-SHA256 lookup keys, so a store can find a record by what it is about without holding it
 * in clear. Each has its own sub-key of the vault key (see keys.ts), distinct from the file's.
 * The label is authenticated with each value: a sealed record moved under another purpose or
 * key fails to open instead of being misread.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { BatchCmac } from './batch-cmac.js';
import { VaultAuthenticationError } from './errors.js';
import { HmacSha256 } from './hmac.js';
import { deriveVaultKeys, type KeyInput, type VaultKeys } from './keys.js';

const ALG = 'aes-256-gcm';
const SEAL_LABEL = 'cloudg-vault/v1/shared-aead';
const LOOKUP_LABEL = 'cloudg-vault/v1/shared-lookup';
// The short lookups are AES-CMAC since the shared vault filed each mapping once (SHA3-256 with a
// key prefix before): a new label, so no key of the one construction meets one of the other.
const SHORT_LOOKUP_LABEL = 'cloudg-vault/v1/shared-cmac-lookup';

export class VaultSealer {
  /** The vault key's id (12 hex), to tell stores written under another key apart. */
  readonly keyId: string;
  readonly #aead: Buffer;
  readonly #lookup: HmacSha256;
  readonly #short: BatchCmac;
  /** The additional data of each label, built once: sealing runs once per new mapping. */
  readonly #aad = new Map<string, Buffer>();

  /** @internal Built by `createVaultSealer` or a TokenVault from its own keys. */
  constructor(keys: Pick<VaultKeys, 'file' | 'keyId'>) {
    this.keyId = keys.keyId;
    this.#aead = createHmac('sha256', keys.file).update(SEAL_LABEL).digest();
    this.#lookup = new HmacSha256(createHmac('sha256', keys.file).update(LOOKUP_LABEL).digest());
    this.#short = new BatchCmac(createHmac('sha256', keys.file).update(SHORT_LOOKUP_LABEL).digest());
  }

  /** `plain` encrypted and authenticated together with `label`: base64 of nonce, tag, data. */
  seal(plain: string, label: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv(ALG, this.#aead, nonce);
    cipher.setAAD(this.#additional(label));
    const data = cipher.update(plain, 'utf8');
    cipher.final();
    return Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64');
  }

  /** The plain text of a sealed value; VaultAuthenticationError for another key, label or a damaged value. */
  open(sealed: string, label: string): string {
    const raw = Buffer.from(sealed, 'base64');
    try {
      const decipher = createDecipheriv(ALG, this.#aead, raw.subarray(0, 12));
      decipher.setAAD(this.#additional(label));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw new VaultAuthenticationError({ data: { sealed_label: label }, cause });
    }
  }

  #additional(label: string): Buffer {
    let aad = this.#aad.get(label);
    if (!aad) {
      aad = Buffer.from(`${this.keyId}\u001f${label}`, 'utf8');
      this.#aad.set(label, aad);
    }
    return aad;
  }

  /** A keyed digest of `text` (64 hex): equal texts give equal keys, and nothing else shows. */
  lookup(text: string): string {
    return this.#lookup.hex(text);
  }

  /**
   * A shorter keyed digest of `text` (22 base64url characters: AES-256-CMAC, 128 bits), under
   * its own sub-key: for the shared vault, which hands its store two per mapping.
   */
  shortLookup(text: string): string {
    return this.#short.tags([text]).toString('base64url');
  }

  /**
   * The short lookups of many texts at once, as `shortLookup` gives each: a cold strict page
   * needs thousands, and computed together they cost a few AES calls rather than one per text
   * (see batch-cmac.ts).
   */
  shortLookups(texts: readonly string[]): string[] {
    const tags = this.#short.tags(texts);
    const out = new Array<string>(texts.length);
    for (let i = 0; i < texts.length; i++) out[i] = tags.toString('base64url', i * 16, i * 16 + 16);
    return out;
  }
}

/** A sealer for the vault key given (option, then environment variable, as the vault resolves it). */
export function createVaultSealer(input: KeyInput): VaultSealer {
  return new VaultSealer(deriveVaultKeys(input));
}
