import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import { listedHint, matchesPhrase } from './hints.js';

const MAX_SUGGESTIONS = 5;

/**
 * Resolve a finding reference: its `id`, else a scanner `source_finding_id` that exactly one
 * finding has. A miss suggests ids containing the text, listed after the message as a second text
 * block (and in `data.suggestions`); the message never repeats the text.
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
  const listed = suggestions.map((f) => ({ finding_id: f.id, dataset: dataset.name }));
  throw new ReferenceNotFoundError(
    `No finding with that id in this dataset.${matchesPhrase(listed.length)} Use list_findings to browse finding ids.`,
    {
      data: { value: ref, dataset: dataset.name, suggestions: listed },
      hints: listed.length
        ? [listedHint('Close matches (pass one finding_id)', { close_matches: listed })]
        : [],
    },
  );
}
