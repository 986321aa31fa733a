/**
 * Findings that `run_scanners` added to a dataset, passed on to the other replicas of a shared
 * workspace. The scanners ran once, on one replica (their output and the IAM linter's depend on
 * that replica's programs and the moment), so the others do not repeat them: the scanning
 * replica stores the dataset's findings and compliance results as they are after the scan under
 * the output directory, which replicas share as they share live collections, and appends a
 * `findings` operation naming the file; every other replica puts the stored findings in place
 * of its own for that dataset.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Dataset } from '../dataset/dataset.js';
import { prepareFindings } from '../findings/prepare.js';
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';

/** Stored scan results are kept in `<output_dir>/shared-findings/`. */
export const SCAN_STORE_DIR = 'shared-findings';
const FORMAT = 'cloudg-dataset-findings/1';

const StoredFindings = z.looseObject({
  format: z.literal(FORMAT),
  dataset: z.string(),
  saved_at: z.string(),
  findings: z.array(FindingSchema),
  compliance: z.array(ComplianceResultSchema).default([]),
});

/**
 * Store `dataset`'s findings for the other replicas and append the operation that hands them
 * over, when the workspace is shared; nothing otherwise. Returns an `errors` entry when that
 * fails (the scan itself succeeded on this replica), else null.
 */
export async function shareScanFindings(workspace: Workspace, dataset: Dataset): Promise<string | null> {
  if (!workspace.shared) return null;
  let path: string;
  try {
    const dir = workspace.outputPath(SCAN_STORE_DIR);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // One file per scan: a replica that applies an older operation late still reads that scan.
    path = join(dir, `${dataset.name}.${Date.now()}-${randomBytes(4).toString('hex')}.json`);
    const temp = `${path}.${process.pid}.tmp`;
    // Server state, like a stored live collection: no tool may read it back.
    workspace.protect(path);
    workspace.protect(temp);
    const body = {
      format: FORMAT,
      dataset: dataset.name,
      saved_at: new Date().toISOString(),
      findings: dataset.findings,
      compliance: dataset.compliance,
    };
    await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    return `store: the new findings could not be saved for the other replicas (${(error as Error).message})`;
  }
  try {
    await workspace.share({ op: 'findings', dataset: dataset.name, path });
    return null;
  } catch (error) {
    return `store: the new findings are on this replica only, the shared log refused them (${(error as Error).message})`;
  }
}

/** Apply a `findings` operation: the stored findings replace the dataset's, indexed as at load. */
export async function applyStoredFindings(workspace: Workspace, name: string, path: string): Promise<void> {
  workspace.protect(path);
  const stored = StoredFindings.parse(JSON.parse(await readFile(path, 'utf8')));
  const dataset = workspace.get(name);
  dataset.findings = stored.findings;
  dataset.compliance = stored.compliance;
  workspace.mutated(dataset);
  await prepareFindings(dataset);
}
