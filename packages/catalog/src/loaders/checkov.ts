import { isPlainObject } from '@cloudg/core';
import { makeScannerFinding, type ScannerFinding } from './finding-factory.js';

/**
 * Checkov's JSON output (`-o json`, `results_json.json`) in its three shapes: one report object
 * (`{check_type, results, summary}`), an array of them when several frameworks ran, and the bare
 * summary (`{passed, failed, skipped, parsingerrors, resourcecount, checkov_version}`) Checkov
 * prints instead of a report when a scan found no resources, which holds no findings.
 *
 * Failed checks become findings on the IaC resource they name; the resource address's last
 * segment (`aws_lambda_function.api-handler` -> `api-handler`) is used to match the deployed
 * asset, and the file and full address are the finding's location.
 */

export function checkovReports(document: unknown): Record<string, unknown>[] {
  const list = Array.isArray(document) ? document : [document];
  return list.filter(isPlainObject);
}

/** A Checkov document in any of its shapes (for detection). */
export function isCheckovDocument(document: unknown): boolean {
  const first = Array.isArray(document) ? document[0] : document;
  if (!isPlainObject(first)) return false;
  if ('check_type' in first || 'checkov_version' in first || isPlainObject(first.results)) return true;
  return ['passed', 'failed', 'resourcecount'].every((k) => typeof first[k] === 'number');
}

export function parseCheckov(document: unknown): ScannerFinding[] {
  const out: ScannerFinding[] = [];
  for (const report of checkovReports(document)) {
    const results = isPlainObject(report.results) ? report.results : {};
    const failed = Array.isArray(results.failed_checks) ? results.failed_checks : [];
    for (const check of failed) {
      if (!isPlainObject(check)) continue;
      const address = typeof check.resource === 'string' ? check.resource : '';
      const segments = address.split('.');
      const name = segments.length > 1 ? segments[segments.length - 1] : address;
      const type = segments.length > 1 ? segments[segments.length - 2] : undefined;
      const lines = Array.isArray(check.file_line_range) ? check.file_line_range.join('-') : '';
      const file = typeof check.file_path === 'string' ? check.file_path : '';
      out.push(
        makeScannerFinding({
          tool: 'checkov',
          check_id: String(check.check_id ?? 'checkov'),
          title: check.check_name,
          description: check.description ?? check.short_description ?? check.check_name,
          // Open-source Checkov leaves severity empty (null); the reference's default is MEDIUM.
          severity: check.severity ?? 'MEDIUM',
          resource_id: name,
          resource_type: type,
          source_finding_id: check.check_id,
          remediation: check.guideline,
          evidence: file ? `${file}${lines ? `:${lines}` : ''} (${address})` : address,
          // Two modules can each declare `aws_s3_bucket.data`: the file tells them apart.
          location: `${file} ${address}`.trim(),
        }),
      );
    }
  }
  return out;
}
