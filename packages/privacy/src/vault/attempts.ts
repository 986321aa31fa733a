/** How many candidates a value gets before the vault gives up (see TokenVault.pseudonymize). */

/** Attempts before giving up on a value's own format and using the generic one. */
export const FORMAT_ATTEMPTS = 48;
/** Attempts in all; the last 16 use the generic `prefix-hex` format. */
export const MAX_ATTEMPTS = 64;
