/**
 * The findings `reachability_findings` would add to a dataset, and adding them: one function for
 * the tool and for a replica repeating the tool's `add_to_dataset` from the shared log (the
 * analysis is deterministic over the same dataset, so every replica adds the same findings).
 */
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { prepareFindings } from './prepare.js';
import { generateReachabilityFindings, type ReachabilityFinding } from './reachability.js';

/** The key under which a finding counts as already present besides its id. */
function sameFindingKey(f: Pick<Finding, 'source_tool' | 'title' | 'resource_id'>): string {
  return `${f.source_tool}\u0000${f.title}\u0000${f.resource_id ?? ''}`;
}

/** Every reachability finding of `dataset`, and those it does not hold yet (by id or by key). */
export function reachabilityFindings(
  dataset: Dataset,
  signal: AbortSignal,
): { generated: ReachabilityFinding[]; fresh: ReachabilityFinding[] } {
  const generated = generateReachabilityFindings(dataset, signal);
  const keys = new Set(dataset.findings.map(sameFindingKey));
  const fresh = generated.filter(
    ({ finding }) => !dataset.indexes.findingById(finding.id) && !keys.has(sameFindingKey(finding)),
  );
  return { generated, fresh };
}

/** Append `fresh` (by default, what the analysis finds now) to the dataset's findings. */
export async function addReachabilityFindings(
  workspace: Workspace,
  dataset: Dataset,
  signal: AbortSignal,
  fresh: readonly ReachabilityFinding[] = reachabilityFindings(dataset, signal).fresh,
): Promise<void> {
  if (fresh.length === 0) return;
  dataset.findings.push(...fresh.map((g) => g.finding));
  workspace.mutated(dataset);
  // Build the findings columns now, as load_dataset does (findings/prepare.ts).
  await prepareFindings(dataset, signal);
}
