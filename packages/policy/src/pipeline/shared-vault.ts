/** Binding the policy's vault to a store shared by several processes (replicas). */
import type { HeldShare, SharedVaultStore } from '@cloudg/privacy';
import { PolicyValidationError } from '../errors.js';
import type { SharedVaultBinding, SharingVault } from './privacy.js';

function isSharing(vault: object): vault is SharingVault {
  const v = vault as Partial<SharingVault>;
  return (
    typeof v.shareWith === 'function' &&
    typeof v.syncShared === 'function' &&
    typeof v.discardUnclaimed === 'function'
  );
}

/** Undefined without a store; otherwise the vault, switched to remembering what it must settle. */
export function bindSharedVault(
  vault: object,
  store: SharedVaultStore | undefined,
): SharedVaultBinding | undefined {
  if (!store) return undefined;
  if (!isSharing(vault)) {
    // A configuration mistake of the embedder, found at start rather than on the first call.
    throw new PolicyValidationError([
      { path: 'vault', message: 'a shared vault store needs a vault that can share (a TokenVault)' },
    ]);
  }
  vault.shareWith(store);
  return { vault, store, held: () => claimHeldOnce(vault, store) };
}

/**
 * Per vault, since policies derived from one share its vault: the claim of its file's mappings,
 * made once (again only after a failure).
 */
const heldClaims = new WeakMap<SharingVault, Promise<HeldShare | undefined>>();

function claimHeldOnce(vault: SharingVault, store: SharedVaultStore): Promise<HeldShare | undefined> {
  let claim = heldClaims.get(vault);
  if (!claim) {
    claim = vault.shareHeld ? vault.shareHeld(store) : Promise.resolve(undefined);
    const made = claim;
    heldClaims.set(vault, made);
    made.catch(() => {
      if (heldClaims.get(vault) === made) heldClaims.delete(vault);
    });
  }
  return claim;
}
