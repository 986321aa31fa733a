import { isPlainObject } from '@cloudg/core';
import type { LoaderKind } from '../model/vocabulary.js';

/**
 * Content sniffing for `kind: "auto"`, in the order of the reference's detection table. The
 * first matching rule wins; undefined means nothing matched and the caller must name a kind.
 */
export function detectDocumentKind(document: unknown): LoaderKind | undefined {
  if (isPlainObject(document)) {
    const has = (key: string) => key in document;
    if (has('findings') && (has('metadata') || has('summary'))) return 'report';
    if (has('assets') && has('edges') && (has('unresolved_references') || has('regions'))) return 'inventory';
    if (has('assets') || has('edges') || has('findings')) return 'generic';
    if (has('Results') && (has('ArtifactName') || has('SchemaVersion') || has('ArtifactType')))
      return 'trivy';
    if (has('check_type') || isPlainObject(document.results)) return 'checkov';
    if (has('Findings')) return 'prowler';
    return undefined;
  }
  if (Array.isArray(document)) {
    const first = document[0];
    if (!isPlainObject(first)) return undefined;
    if ('check_type' in first) return 'checkov';
    if (['ProductArn', 'SchemaVersion', 'finding_info', 'status_code'].some((k) => k in first))
      return 'prowler';
    if (['severity', 'title', 'resource_id'].some((k) => k in first)) return 'generic';
  }
  return undefined;
}

/** File names that mark a directory's content. */
export const INVENTORY_MAP_FILE = 'inventory-map.json';
export const FINDINGS_REPORT_FILE = 'findings.json';
export const CHECKOV_RESULTS_FILE = 'results_json.json';

/** A ScoutSuite results file as a directory holds it: `scoutsuite_results*.js`. */
export function isScoutsuiteResultsFile(name: string): boolean {
  return name.startsWith('scoutsuite_results') && name.endsWith('.js');
}

/** A single file `kind: "auto"` reads as ScoutSuite: the results prefix or any `.js` file. */
export function isScoutsuiteFileName(name: string): boolean {
  return name.startsWith('scoutsuite_results') || name.endsWith('.js');
}

/** Directory detection: which kind its marker files say it holds. */
export function detectDirectoryKind(entries: readonly string[]): LoaderKind | undefined {
  const names = new Set(entries);
  if (names.has(INVENTORY_MAP_FILE)) return 'inventory';
  if (names.has(FINDINGS_REPORT_FILE)) return 'report';
  if (entries.some(isScoutsuiteResultsFile)) return 'scoutsuite';
  if (names.has(CHECKOV_RESULTS_FILE)) return 'checkov';
  return undefined;
}
