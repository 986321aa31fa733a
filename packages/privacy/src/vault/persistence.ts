/**
 * The vault file. Encrypted files use AES-256-GCM (node:crypto) under the vault's file key,
 * with a fresh 12-byte nonce per write; the format, algorithm and key id are authenticated as
 * additional data, so a file cannot be relabelled. Writes are atomic: a temporary file in the
 * same directory, created with mode 0600, fsynced and renamed over the target.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { VaultAuthenticationError, VaultFormatError, VaultIoError } from './errors.js';
import { VAULT_FORMAT } from './export-document.js';
import type { VaultKeys } from './keys.js';
import type { EncryptedVaultFile, VaultExport } from './types.js';

const FORMAT = VAULT_FORMAT;
const ALG = 'aes-256-gcm';

function aad(keyId: string): Buffer {
  return Buffer.from(`${FORMAT}\u001f${ALG}\u001f${keyId}`, 'utf8');
}

/** Encrypt an export document into the file structure. */
export function encryptExport(doc: VaultExport, keys: Pick<VaultKeys, 'file' | 'keyId'>): EncryptedVaultFile {
  const nonce = randomBytes(12);
  const cipher = createCipheriv(ALG, keys.file, nonce);
  cipher.setAAD(aad(keys.keyId));
  const data = Buffer.concat([cipher.update(JSON.stringify(doc), 'utf8'), cipher.final()]);
  return {
    format: FORMAT,
    encrypted: true,
    key_id: keys.keyId,
    alg: ALG,
    nonce: nonce.toString('base64'),
    data: data.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

function b64(field: unknown, name: string): Buffer {
  // Any string decodes; a damaged one then fails authentication, which is the clearer error.
  if (typeof field !== 'string') {
    throw new VaultFormatError('Vault file field is not a base64 string', { data: { field: name } });
  }
  return Buffer.from(field, 'base64');
}

/**
 * Decrypt and authenticate a parsed encrypted file. Any mismatch (wrong key, modified nonce,
 * data, tag or key id) raises VaultAuthenticationError.
 */
export function decryptVaultFile(
  file: Record<string, unknown>,
  keys: Pick<VaultKeys, 'file' | 'keyId'>,
): unknown {
  if (file.alg !== undefined && file.alg !== ALG) {
    throw new VaultFormatError('Unsupported vault file algorithm', { data: { expected: ALG } });
  }
  const fileKeyId = typeof file.key_id === 'string' ? file.key_id : '';
  const nonce = b64(file.nonce, 'nonce');
  const data = b64(file.data, 'data');
  const tag = b64(file.tag, 'tag');
  const keyIdMatches = fileKeyId === keys.keyId;
  if (nonce.length !== 12 || tag.length !== 16 || !keyIdMatches) {
    throw new VaultAuthenticationError({ data: { key_id_matches: keyIdMatches } });
  }
  let plain: string;
  try {
    const decipher = createDecipheriv(ALG, keys.file, nonce);
    decipher.setAAD(aad(fileKeyId));
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new VaultAuthenticationError({ data: { key_id_matches: keyIdMatches }, cause });
  }
  try {
    return JSON.parse(plain) as unknown;
  } catch (cause) {
    throw new VaultFormatError('Vault file plaintext is not JSON', { cause });
  }
}

/**
 * Read a vault file and return its (unvalidated) export document. With `requireEncrypted`, a
 * plaintext file is refused like a tampered one, so nobody can swap in mappings of their own.
 */
export function readVaultFile(path: string, keys: VaultKeys, requireEncrypted: boolean): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new VaultIoError('Could not read the vault file', { data: { path }, cause });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (cause) {
    throw new VaultFormatError('Vault file is not JSON', { data: { path }, cause });
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { format?: unknown }).format !== FORMAT) {
    throw new VaultFormatError('Vault file is not in the cloudg-vault/1 format', { data: { path } });
  }
  const file = parsed as Record<string, unknown>;
  if (file.encrypted === true) return decryptVaultFile(file, keys);
  if (requireEncrypted) throw new VaultAuthenticationError({ data: { path, encrypted: false } });
  return file;
}

/** Write atomically with mode 0600; `keys` null writes the plaintext export. */
export function writeVaultFile(path: string, doc: VaultExport, keys: VaultKeys | null): void {
  const body = JSON.stringify(keys ? encryptExport(doc, keys) : doc);
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    fd = openSync(tmp, 'wx', 0o600);
    fchmodSync(fd, 0o600);
    writeSync(fd, body);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (cause) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // The temporary file was never created or is already gone.
    }
    throw new VaultIoError('Could not write the vault file', { data: { path }, cause });
  }
}
