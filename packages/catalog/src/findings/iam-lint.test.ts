import { describe, expect, it } from 'vitest';
import type { CloudAsset } from '../model/asset.js';
import { IAM_LINT_TOOL, lintIamPolicies, RULE_ALL_ACTIONS, RULE_ALL_RESOURCES } from './iam-lint.js';

function asset(name: string, type: string, metadata: Record<string, unknown>): CloudAsset {
  return {
    id: `id-${name}`,
    arn: `arn:aws:iam::123456789012:${type === 'IAM_ROLE' ? 'role' : 'policy'}/${name}`,
    name,
    asset_type: type,
    provider: 'AWS',
    region: 'global',
    account_id: '123456789012',
    tags: {},
    metadata,
    collected_at: '2026-01-15T12:00:00',
    is_internet_exposed: false,
  };
}

const doc = (...Statement: unknown[]) => ({ Version: '2012-10-17', Statement });

describe('lintIamPolicies', () => {
  it('reports Action * and sensitive or wildcard actions on Resource *, HIGH, as cloudg-iam', () => {
    const { findings, documents } = lintIamPolicies({
      assets: [
        asset('admin', 'IAM_POLICY', {
          policy_document: doc({ Sid: 'All', Effect: 'Allow', Action: '*', Resource: '*' }),
        }),
        asset('ops', 'IAM_POLICY', {
          policy_document: doc(
            { Effect: 'Allow', Action: ['s3:GetObject', 'logs:PutLogEvents'], Resource: '*' },
            { Effect: 'Allow', Action: 'dynamodb:Get*', Resource: '*' },
            { Effect: 'Allow', Action: 'iam:PassRole', Resource: 'arn:aws:iam::123456789012:role/app' },
            { Effect: 'Deny', Action: '*', Resource: '*' },
            { Effect: 'Allow', Action: 'logs:PutLogEvents', Resource: '*' },
          ),
        }),
      ],
    });
    expect(documents).toBe(2);
    expect(findings.map((f) => [f.resource_id, f.source_finding_id, f.severity, f.source_tool])).toEqual([
      ['id-admin', RULE_ALL_ACTIONS, 'HIGH', IAM_LINT_TOOL],
      ['id-ops', RULE_ALL_RESOURCES, 'HIGH', IAM_LINT_TOOL],
    ]);
    expect(findings[0]).toMatchObject({
      title: 'IAM policy allows every action: admin',
      evidence: 'policy_document: statement All allows Action *',
      resource_arn: 'arn:aws:iam::123456789012:policy/admin',
      resource_type: 'IAM_POLICY',
      account_id: '123456789012',
    });
    // Both offending statements of one document in one finding; the narrow ones are fine.
    expect(findings[1]?.evidence).toBe(
      'policy_document: statement #1 allows s3:GetObject on Resource *; statement #2 allows dynamodb:Get* on Resource *',
    );
  });

  it('reads a role trust policy and its permission policy, URL-encoded or parsed', () => {
    const trust = encodeURIComponent(
      JSON.stringify(doc({ Effect: 'Allow', Principal: { AWS: '*' }, Action: '*' })),
    );
    const { findings, documents } = lintIamPolicies({
      assets: [
        asset('wide', 'IAM_ROLE', {
          assume_role_policy: trust,
          policy_document: JSON.stringify(doc({ Effect: 'Allow', Action: 'kms:Decrypt', Resource: ['*'] })),
        }),
        asset('user', 'IAM_USER', { policy_document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }) }),
        asset('plain', 'IAM_ROLE', {}),
      ],
    });
    expect(documents).toBe(2);
    expect(findings.map((f) => f.title)).toEqual([
      'IAM trust policy allows every action: wide',
      'IAM policy allows sensitive or wildcard actions on every resource: wide',
    ]);
  });

  it('gives a finding the same id on every run', () => {
    const assets = [asset('admin', 'IAM_POLICY', { policy_document: doc({ Effect: 'Allow', Action: '*' }) })];
    const first = lintIamPolicies({ assets }).findings[0]?.id;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(lintIamPolicies({ assets }).findings[0]?.id).toBe(first);
  });

  it('stops when the signal aborts', () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(() => lintIamPolicies({ assets: [asset('a', 'IAM_ROLE', {})] }, controller.signal)).toThrow(
      'cancelled',
    );
  });
});
