/**
 * What issuing a value's candidates (TokenVault.pseudonymize) and working a held mapping out again
 * (held-derivation.ts) must agree on: how many candidates a value gets before the vault gives up,
 * and which values are never mapped.
 */

/** Attempts before giving up on a value's own format and using the generic one. */
export const FORMAT_ATTEMPTS = 48;
/** Attempts in all; the last 16 use the generic `prefix-hex` format. */
export const MAX_ATTEMPTS = 64;

/** Values pseudonymize hands back unchanged, storing nothing. */
export function leftAlone(value: string): boolean {
  return value === '' || value === '*';
}
