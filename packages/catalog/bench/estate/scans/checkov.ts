/**
 * Checkov's JSON output for a multi-framework run (`-o json` over Terraform and Kubernetes
 * manifests): `results_json.json`, an array with one report per framework, each listing its
 * failed checks with the resource address and where it is declared.
 */
import type { PlannedFinding } from '../findings.js';

const CHECKOV_VERSION = '3.2.255';

export function* checkovFiles(findings: readonly PlannedFinding[]): Generator<[string, string]> {
  const byFramework = new Map<string, Record<string, unknown>[]>();
  const resources = new Map<string, Set<string>>();
  for (const p of findings) {
    if (p.scanner !== 'checkov' || !p.check || !p.iac) continue;
    const { framework, address, file, lines } = p.iac;
    let failed = byFramework.get(framework);
    if (!failed) {
      failed = [];
      byFramework.set(framework, failed);
      resources.set(framework, new Set());
    }
    resources.get(framework)?.add(address);
    failed.push({
      check_id: p.check.id,
      bc_check_id: null,
      check_name: p.finding.title,
      check_result: { result: 'FAILED', evaluated_keys: [] },
      code_block: [],
      file_path: file,
      file_abs_path: `/src${file}`,
      repo_file_path: file,
      file_line_range: lines,
      resource: address,
      evaluations: null,
      check_class: `checkov.${framework}.checks.${p.check.id}`,
      entity_tags: null,
      resource_address: null,
      severity: p.finding.severity,
      guideline: p.finding.remediation,
      details: [],
    });
  }
  const reports = [...byFramework].map(([framework, failed]) => ({
    check_type: framework,
    results: { passed_checks: [], failed_checks: failed, skipped_checks: [], parsing_errors: [] },
    summary: {
      passed: 0,
      failed: failed.length,
      skipped: 0,
      parsing_errors: 0,
      resource_count: resources.get(framework)?.size ?? 0,
      checkov_version: CHECKOV_VERSION,
    },
  }));
  if (reports.length) yield ['checkov/results_json.json', JSON.stringify(reports)];
}
