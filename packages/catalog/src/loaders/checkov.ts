import { isPlainObject } from '@cloudg/core';
import { makeScannerFinding, type ScannerFinding } from './finding-factory.js';

/**
 * Checkov's JSON output (`-o json`, `results_json.json`): one report object per framework, or an
 * array of them. Failed checks become findings on the IaC resource they name; the resource
 * address's last segment (`aws_lambda_function.api-handler` -> `api-handler`) is used to match
 * the deployed asset.
 */

export function checkovReports(document: unknown): Record<string, unknown>[] {
  const list = Array.isArray(document) ? document : [document];
  return list.filter(isPlainObject);
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
          severity: check.severity ?? 'MEDIUM',
          resource_id: name,
          resource_type: type,
          source_finding_id: check.check_id,
          remediation: check.guideline,
          evidence: file ? `${file}${lines ? `:${lines}` : ''} (${address})` : address,
        }),
      );
    }
  }
  return out;
}
