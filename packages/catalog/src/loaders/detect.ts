import { basename } from 'node:path';
import { isPlainObject } from '@cloudg/core';
import type { LoaderKind } from '../model/vocabulary.js';
import { isCheckovDocument } from './checkov.js';
import { looksLikeProwlerRecord } from './prowler.js';
import { isProwlerV2Record } from './prowler-v2.js';
import { isTrivyDocument } from './trivy.js';

/**
 * Content sniffing for `kind: "auto"`, in the order of the reference's detection table, with the
 * scanner shapes the reference did not know added (Trivy's legacy array and `k8s` report,
 * Checkov's bare summary, Prowler 3 native and Prowler 2 records). The first matching rule wins;
 * undefined means nothing matched and the caller must name a kind.
 */
export function detectDocumentKind(document: unknown): LoaderKind | undefined {
  if (isPlainObject(document)) {
    const has = (key: string) => key in document;
    if (has('findings') && (has('metadata') || has('summary'))) return 'report';
    if (has('assets') && has('edges') && (has('unresolved_references') || has('regions'))) return 'inventory';
    if (has('assets') || has('edges') || has('findings')) return 'generic';
    if (isTrivyDocument(document)) return 'trivy';
    if (isCheckovDocument(document)) return 'checkov';
    if (has('Findings') || isProwlerV2Record(document) || ('CheckID' in document && 'Status' in document))
      return 'prowler';
    return undefined;
  }
  if (Array.isArray(document)) {
    const first = document[0];
    if (!isPlainObject(first)) return undefined;
    if ('check_type' in first) return 'checkov';
    if (isTrivyDocument(document)) return 'trivy';
    if (looksLikeProwlerRecord(first) || 'SchemaVersion' in first) return 'prowler';
    if (['severity', 'title', 'resource_id'].some((k) => k in first)) return 'generic';
  }
  return undefined;
}

/** A document with nothing in it: what scanners write when they found nothing. */
export function isEmptyDocument(document: unknown): boolean {
  if (document === null) return true;
  if (Array.isArray(document)) return document.length === 0;
  return isPlainObject(document) && Object.keys(document).length === 0;
}

/**
 * The scanner an empty file's name suggests (`prowler-output-...ocsf.json`, `trivy-image.json`,
 * `results_json.json`), so an empty report loads as the kind it was meant to be.
 */
export function kindFromFileName(name: string): LoaderKind | undefined {
  const lower = basename(name).toLowerCase();
  if (lower.includes('prowler') || lower.includes('.ocsf.') || lower.includes('.asff.')) return 'prowler';
  if (lower.includes('trivy')) return 'trivy';
  if (lower.includes('checkov') || lower === CHECKOV_RESULTS_FILE) return 'checkov';
  if (lower.includes('scout')) return 'scoutsuite';
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

/** Scout2's results, `inc-awsconfig/aws_config.js` or `aws_config-<profile>.js`. */
export function isScout2ConfigFile(relativePath: string): boolean {
  const name = basename(relativePath);
  return name.startsWith('aws_config') && name.endsWith('.js') && relativePath.includes('inc-awsconfig');
}

/** A single file `kind: "auto"` reads as ScoutSuite: the results prefix or any `.js` file. */
export function isScoutsuiteFileName(name: string): boolean {
  return name.startsWith('scoutsuite_results') || name.endsWith('.js');
}

/**
 * Directory detection: which kind its marker files say it holds. `entries` are paths relative
 * to the directory; the inventory and report markers count only at the top, a ScoutSuite or
 * Scout2 results file in the subdirectory those tools write (`scoutsuite-results/`,
 * `inc-awsconfig/`) too.
 */
export function detectDirectoryKind(entries: readonly string[]): LoaderKind | undefined {
  const top = new Set(entries.filter((e) => !e.includes('/')));
  if (top.has(INVENTORY_MAP_FILE)) return 'inventory';
  if (top.has(FINDINGS_REPORT_FILE)) return 'report';
  const shallow = entries.filter((e) => e.split('/').length <= 2);
  if (shallow.some((e) => isScoutsuiteResultsFile(basename(e)) || isScout2ConfigFile(e))) return 'scoutsuite';
  if (top.has(CHECKOV_RESULTS_FILE)) return 'checkov';
  // Prowler's own output directory: `prowler-output-<account>-<time>.ocsf.json` / `.asff.json`.
  if ([...top].some((e) => /\.(ocsf|asff)\.json$/i.test(e) || /^prowler-output.*\.json$/i.test(e)))
    return 'prowler';
  return undefined;
}
