/** The `cloudg-vault/1` export document: validation before anything is imported. */
import { VaultFormatError } from './errors.js';
import type { VaultExport, VaultExportEntry } from './types.js';

export const VAULT_FORMAT = 'cloudg-vault/1';

function isExportEntry(e: unknown): e is VaultExportEntry {
  return (
    Array.isArray(e) &&
    e.length === 6 &&
    typeof e[0] === 'string' &&
    typeof e[1] === 'string' &&
    typeof e[2] === 'string' &&
    typeof e[3] === 'string' &&
    typeof e[4] === 'number' &&
    typeof e[5] === 'number'
  );
}

/** Validate an export document; throws VaultFormatError. */
export function parseVaultExport(doc: unknown): VaultExport {
  if (typeof doc !== 'object' || doc === null) {
    throw new VaultFormatError('Vault document must be an object', { data: { format: VAULT_FORMAT } });
  }
  const d = doc as Record<string, unknown>;
  if (d.format !== VAULT_FORMAT) {
    throw new VaultFormatError('Unsupported vault document format', {
      data: { expected: VAULT_FORMAT, found: typeof d.format === 'string' ? d.format : null },
    });
  }
  if (!Array.isArray(d.entries)) {
    throw new VaultFormatError('Vault document has no entries list', { data: { format: VAULT_FORMAT } });
  }
  const bad = d.entries.findIndex((e) => !isExportEntry(e));
  if (bad >= 0) {
    throw new VaultFormatError('Vault document has a malformed entry', { data: { index: bad } });
  }
  return { format: VAULT_FORMAT, key_id: typeof d.key_id === 'string' ? d.key_id : '', entries: d.entries };
}
