import type { Dataset } from '../dataset/dataset.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * The `dataset` argument every data tool takes: empty means the active dataset. Unknown names
 * and an empty workspace fail with NoDatasetError (-32602), whose data lists what is loaded.
 */
export function resolveDataset(workspace: Workspace, name?: string | null): Dataset {
  return workspace.get(name?.trim() || null);
}
