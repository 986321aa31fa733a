/**
 * Save-on-exit. One `exit` listener for the whole process saves every registered vault that
 * changed since its last save. Vaults are held through WeakRefs, so registering many (one
 * per policy, per test) neither leaks them nor adds listeners.
 */

export interface ExitSavable {
  readonly dirty: boolean;
  readonly path: string | null;
  save(): string | null;
}

const live = new Set<WeakRef<ExitSavable>>();
const refs = new WeakMap<ExitSavable, WeakRef<ExitSavable>>();
const finalizer = new FinalizationRegistry<WeakRef<ExitSavable>>((ref) => live.delete(ref));
let hooked = false;

/** Save every live, changed vault; errors are reported on stderr and do not stop the others. */
export function saveAllOnExit(): number {
  let saved = 0;
  for (const ref of [...live]) {
    const vault = ref.deref();
    if (!vault) {
      live.delete(ref);
      continue;
    }
    if (vault.path === null || !vault.dirty) continue;
    try {
      vault.save();
      saved++;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      process.stderr.write(`cloudg: could not save the token vault at exit (${String(code ?? 'error')})\n`);
    }
  }
  return saved;
}

export function registerForExitSave(vault: ExitSavable): void {
  if (refs.has(vault)) return;
  const ref = new WeakRef(vault);
  refs.set(vault, ref);
  live.add(ref);
  finalizer.register(vault, ref, ref);
  if (!hooked) {
    hooked = true;
    process.once('exit', saveAllOnExit);
  }
}

export function unregisterForExitSave(vault: ExitSavable): void {
  const ref = refs.get(vault);
  if (!ref) return;
  refs.delete(vault);
  live.delete(ref);
  finalizer.unregister(ref);
}
