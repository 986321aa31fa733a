/**
 * cloudg's own IAM linter, the `iam` scanner of `run_scanners` (site/guides/running-scanners.md,
 * "The IAM linter"): every `IAM_ROLE` and `IAM_POLICY` of a dataset whose policy document was
 * collected (`metadata.assume_role_policy`, `metadata.policy_document`), checked for `Allow`
 * statements that grant every action (`Action: *`), or every resource (`Resource: *`) together
 * with a wildcard action or an action of `iam`, `sts`, `kms`, `s3`, `ec2` or `lambda`. Each is a
 * HIGH finding with `source_tool: cloudg-iam`, its id a UUIDv5 of the rule, the asset's ARN and
 * the document, so a re-scan finds the same ids (and their suppressions) again.
 *
 * Not ported: the reference's first pass runs Parliament, a Python library with its own database
 * of every AWS action and condition key; nothing of it is documented beyond "wildcard abuse and
 * logical errors", so there is nothing here to reproduce it from, and its findings
 * (`source_tool: parliament`) do not appear.
 */
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { Finding } from '../model/finding.js';
import { uuid5 } from './uuid5.js';

export const IAM_LINT_TOOL = 'cloudg-iam';
export const RULE_ALL_ACTIONS = 'iam-allow-all-actions';
export const RULE_ALL_RESOURCES = 'iam-allow-sensitive-actions-all-resources';

/** uuid5(NAMESPACE_URL, 'urn:cloudg:iam'), as the reachability findings have their own. */
export const IAM_LINT_NAMESPACE = '230d3bfb-7107-55ce-8c0f-eb8a0ac89ae5';

/** Services whose actions on `Resource: *` the reference reports, wildcard or not. */
const SENSITIVE_SERVICES = new Set(['iam', 'sts', 'kms', 's3', 'ec2', 'lambda']);

/**
 * The documents of an asset, by metadata key. The reference reads only one, preferring the trust
 * policy, so a role whose permission policy was also collected had that policy skipped; both
 * are read here.
 */
const DOCUMENT_KEYS = ['assume_role_policy', 'policy_document'] as const;

interface Statement {
  Sid?: unknown;
  Effect?: unknown;
  Action?: unknown;
  Resource?: unknown;
}

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((v) => typeof v === 'string')
      : [];

/** A policy document as collected: an object, JSON text, or the URL-encoded JSON IAM returns. */
export function policyStatements(document: unknown): Statement[] {
  let doc = document;
  if (typeof doc === 'string') {
    try {
      const text = /^%7b/i.test(doc.trim()) ? decodeURIComponent(doc) : doc;
      doc = JSON.parse(text);
    } catch {
      return [];
    }
  }
  if (typeof doc !== 'object' || doc === null) return [];
  const raw = (doc as { Statement?: unknown }).Statement;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.filter((s): s is Statement => typeof s === 'object' && s !== null && !Array.isArray(s));
}

/** What is wrong with one statement, or null. */
export function statementIssue(
  statement: Statement,
): { rule: typeof RULE_ALL_ACTIONS | typeof RULE_ALL_RESOURCES; actions: string[] } | null {
  if (statement.Effect !== 'Allow') return null;
  const actions = strings(statement.Action);
  if (actions.includes('*')) return { rule: RULE_ALL_ACTIONS, actions: ['*'] };
  if (!strings(statement.Resource).includes('*')) return null;
  const risky = actions.filter(
    (a) => a.includes('*') || SENSITIVE_SERVICES.has(a.split(':')[0]?.toLowerCase() ?? ''),
  );
  return risky.length > 0 ? { rule: RULE_ALL_RESOURCES, actions: risky } : null;
}

const LINTED_TYPES = new Set(['IAM_ROLE', 'IAM_POLICY']);

function detectedNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Which statement and what it allows; resources other than `*` are not repeated (they are identifiers). */
function describeStatement(index: number, statement: Statement, rule: string, actions: string[]): string {
  const sid = typeof statement.Sid === 'string' && statement.Sid ? statement.Sid : `#${index + 1}`;
  return rule === RULE_ALL_ACTIONS
    ? `statement ${sid} allows Action *`
    : `statement ${sid} allows ${actions.join(', ')} on Resource *`;
}

function finding(
  asset: CloudAsset,
  key: (typeof DOCUMENT_KEYS)[number],
  rule: string,
  statements: string[],
  detectedAt: string,
): Finding {
  const trust = key === 'assume_role_policy';
  const what = trust ? 'trust policy' : 'policy';
  const all = rule === RULE_ALL_ACTIONS;
  return {
    id: uuid5(`${rule}\n${asset.arn || asset.id}\n${key}`, IAM_LINT_NAMESPACE),
    title: all
      ? `IAM ${what} allows every action: ${asset.name}`
      : `IAM ${what} allows sensitive or wildcard actions on every resource: ${asset.name}`,
    description: all
      ? `${asset.asset_type} ${asset.name} has an Allow statement with Action "*": whoever holds it can do anything the account allows.`
      : `${asset.asset_type} ${asset.name} has an Allow statement granting wildcard actions, or actions of iam, sts, kms, s3, ec2 or lambda, on Resource "*".`,
    severity: 'HIGH',
    source_tool: IAM_LINT_TOOL,
    resource_id: asset.id,
    resource_arn: asset.arn,
    resource_type: asset.asset_type,
    region: asset.region,
    account_id: asset.account_id,
    compliance_frameworks: [],
    is_suppressed: false,
    suppression_reason: null,
    cvss_score: null,
    detected_at: detectedAt,
    evidence: `${key}: ${statements.join('; ')}`,
    remediation: all
      ? 'Replace Action "*" with the actions the principal needs, scoped to the resources it uses.'
      : 'Name the resources the actions apply to instead of "*", and replace wildcard actions with the ones needed.',
    source_finding_id: rule,
  };
}

/**
 * The linter's findings for a dataset: one per asset, document and rule, listing every offending
 * statement in its evidence, and how many documents it read. Checks the signal between assets.
 */
export function lintIamPolicies(
  dataset: Pick<Dataset, 'assets'>,
  signal?: AbortSignal,
): { findings: Finding[]; documents: number } {
  const detectedAt = detectedNow();
  const out: Finding[] = [];
  let documents = 0;
  for (const asset of dataset.assets) {
    if (!LINTED_TYPES.has(asset.asset_type)) continue;
    signal?.throwIfAborted();
    for (const key of DOCUMENT_KEYS) {
      if (asset.metadata[key] === undefined || asset.metadata[key] === null) continue;
      documents += 1;
      const byRule = new Map<string, string[]>();
      policyStatements(asset.metadata[key]).forEach((statement, index) => {
        const issue = statementIssue(statement);
        if (!issue) return;
        byRule.set(issue.rule, [
          ...(byRule.get(issue.rule) ?? []),
          describeStatement(index, statement, issue.rule, issue.actions),
        ]);
      });
      for (const [rule, statements] of byRule) out.push(finding(asset, key, rule, statements, detectedAt));
    }
  }
  return { findings: out, documents };
}
