import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type GeneratedEstate,
  generateEstate,
  type WrittenEstate,
  writeEstate,
} from '../../bench/estate/index.js';
import { Workspace } from '../../src/index.js';

/** A generated estate written to a private temporary directory, with a workspace rooted there. */
export async function writtenEstate(
  seed: number,
  assets: number,
): Promise<{ estate: GeneratedEstate; written: WrittenEstate; ws: Workspace; cleanup: () => Promise<void> }> {
  const estate = generateEstate({ seed, assets });
  const dir = await mkdtemp(join(tmpdir(), 'cloudg-bench-estate-'));
  const written = await writeEstate(dir, estate);
  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  return { estate, written, ws, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
