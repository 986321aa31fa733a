import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleEstateDir, Workspace, type WorkspaceOptions } from '../../src/index.js';

/** A private copy of the sample estate, so tests can add files and symlinks beside it. */
export async function copyEstate(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cloudg-ws-'));
  await cp(sampleEstateDir(), dir, { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A workspace rooted at `dir`, output under `dir/out`, as the reference's examples were produced. */
export function workspaceAt(dir: string, options: WorkspaceOptions = {}): Workspace {
  return new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir, ...options });
}

/** The `sample` dataset loaded from the bundled estate. */
export async function sampleWorkspace(): Promise<Workspace> {
  const ws = workspaceAt(sampleEstateDir());
  await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  return ws;
}
