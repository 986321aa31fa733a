/**
 * The keyed hash both audit trails give a value: HMAC-SHA256 of its canonical JSON. The JSONL
 * audit log keeps 16 hex characters of it and the policy's decision log 12, so with the same key
 * a decision log hash is the prefix of the audit log hash of the same value.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../json.js';

/** Hex HMAC-SHA256 (64 characters) of a value's canonical JSON, under one key. */
export type AuditHasher = (value: unknown) => string;

/** Hex characters the JSONL audit log keeps. */
export const AUDIT_HASH_LENGTH = 16;

/** The hasher for a key (a salt string, raw bytes or a key object). */
export function createAuditHasher(key: string | Uint8Array | KeyObject): AuditHasher {
  // Importing the raw key on every hash would cost more than the hash itself.
  const secret =
    typeof key === 'string'
      ? createSecretKey(Buffer.from(key, 'utf8'))
      : key instanceof Uint8Array
        ? createSecretKey(key)
        : key;
  return (value) => createHmac('sha256', secret).update(canonicalText(value)).digest('hex');
}

/** First 16 hex characters of HMAC-SHA256(salt, canonical JSON of the value). */
export function auditHash(salt: string | Uint8Array | KeyObject, value: unknown): string {
  return createAuditHasher(salt)(value).slice(0, AUDIT_HASH_LENGTH);
}

function canonicalText(value: unknown): string {
  // Strings, booleans and finite numbers have one JSON form already: skip the generic walk.
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  try {
    return canonicalJson(value);
  } catch {
    // A value JSON cannot represent (a cycle) still gets a hash rather than breaking the call.
    return String(value);
  }
}
