/**
 * The live tools in the leak run: an engine that "collects" the planted inventory, and the
 * server's credentials as the preflight sees them (placeholders: nothing here reaches a cloud).
 */
import { join } from 'node:path';
import { type CloudgEngine, configureLive, loadPath, type Workspace } from '@cloudg/catalog';

export function plantedEngine(dir: string): CloudgEngine {
  const collect: CloudgEngine['collect'] = async ({ signal }) =>
    (await loadPath(join(dir, 'inventory'), { signal })).data;
  return { mapInventory: collect, collect };
}

/** Credentials the preflight accepts, so the collecting tools run instead of failing first. */
export function liveCredentials(ws: Workspace): void {
  configureLive(ws, {
    preflight: {
      env: { AWS_ACCESS_KEY_ID: 'AKIALEAKTESTEXAMPLE0', AWS_SECRET_ACCESS_KEY: 'placeholder' },
      probe: async () => null,
    },
  });
}
