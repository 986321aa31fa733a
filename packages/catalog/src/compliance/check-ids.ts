import type { Finding } from '../model/finding.js';

/**
 * A finding's scanner check. Loaders record it as `check_id`; findings from a `findings.json`
 * only have `source_finding_id`, where a Prowler ASFF id embeds the check name
 * (`prowler-aws-s3_bucket_default_encryption-123456789012-eu-west-1-abc`, or without the provider
 * in Prowler 3) and Checkov, Trivy and ScoutSuite ids are the check itself.
 */
export function findingCheck(f: Finding): string | null {
  if (typeof f.check_id === 'string' && f.check_id) return f.check_id;
  const id = f.source_finding_id;
  if (!id) return null;
  if (f.source_tool.toLowerCase().includes('prowler') && id.startsWith('prowler-')) {
    const tokens = id.split('-');
    const provider = /^(aws|azure|gcp|kubernetes|m365|github)$/.test(tokens[1] ?? '');
    return tokens[provider ? 2 : 1] || null;
  }
  return id;
}

/**
 * The pieces the exact check tier looks up in the rulesets: the check itself and, for a finding
 * whose loader did not record its check (one read from a `findings.json`), every piece of
 * `source_finding_id` split on `-`, `/`, `:` and white space, which is how the reference finds a
 * Prowler check name inside an ASFF id. A recorded check makes the split pointless: its other
 * pieces are accounts, regions and hashes.
 */
export function checkPieces(f: Finding): string[] {
  const check = findingCheck(f);
  if (typeof f.check_id === 'string' && f.check_id) return [f.check_id];
  const pieces = check ? [check] : [];
  for (const piece of (f.source_finding_id ?? '').split(/[-/:\s]+/)) {
    if (piece && piece !== check) pieces.push(piece);
  }
  return pieces;
}
