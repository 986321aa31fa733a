import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';

const MAX_SUGGESTIONS = 5;

/**
 * Resolve a finding reference: its `id`, else a scanner `source_finding_id` that exactly one
 * finding has. A miss suggests ids containing the text; the message never repeats it.
 */
export function resolveFindingRef(dataset: Dataset, ref: string): Finding {
  const value = ref.trim();
  const byId = dataset.indexes.findingById(value);
  if (byId) return byId;
  const bySource = dataset.findings.filter((f) => f.source_finding_id === value);
  if (bySource.length === 1 && bySource[0]) return bySource[0];
  const needle = value.toLowerCase();
  const suggestions = needle
    ? dataset.findings
        .filter(
          (f) => f.id.toLowerCase().includes(needle) || f.source_finding_id?.toLowerCase().includes(needle),
        )
        .slice(0, MAX_SUGGESTIONS)
    : [];
  const hint =
    suggestions.length === 0
      ? ''
      : ` ${suggestions.length} close ${suggestions.length === 1 ? 'match' : 'matches'}, see suggestions in the error data.`;
  throw new ReferenceNotFoundError(
    `No finding with that id in this dataset.${hint} Use list_findings to browse finding ids.`,
    {
      data: {
        value: ref,
        dataset: dataset.name,
        suggestions: suggestions.map((f) => ({ finding_id: f.id, dataset: dataset.name })),
      },
    },
  );
}
