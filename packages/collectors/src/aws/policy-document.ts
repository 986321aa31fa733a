import { type Relation, rel } from '../model/relation.js';

interface Statement {
  Effect?: string;
  Action?: string | string[];
  Resource?: string | string[];
  Principal?: string | Record<string, string | string[]>;
  Condition?: Record<string, unknown>;
}

/**
 * A policy document as an object for `metadata.assume_role_policy` / `metadata.policy_document`
 * (what the IAM linter of `run_scanners` reads), decoded from IAM's URL-encoded JSON; undefined
 * when there is none or it does not parse.
 */
export function policyDocument(document: unknown): Record<string, unknown> | undefined {
  let doc = document;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(/^%7b/i.test(doc) ? decodeURIComponent(doc) : doc);
    } catch {
      return undefined;
    }
  }
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc)
    ? (doc as Record<string, unknown>)
    : undefined;
}

/**
 * An identity's inline policies as one document, for `metadata.policy_document` beside the trust
 * policy, so the IAM linter reads them as it reads a managed policy's document. The statements
 * keep their inline policies' order; the policy names stay in `metadata.inline_policies`.
 * Undefined when there are none (or none parses).
 */
export function inlinePolicyDocument(
  policies: readonly { PolicyName?: string; PolicyDocument?: string }[] | undefined,
): Record<string, unknown> | undefined {
  const statements = (policies ?? []).flatMap((p) => {
    const raw = policyDocument(p.PolicyDocument)?.Statement;
    return Array.isArray(raw) ? raw : raw ? [raw] : [];
  });
  return statements.length > 0 ? { Version: '2012-10-17', Statement: statements } : undefined;
}

/** A policy document, URL-encoded as IAM returns it, or already parsed. */
export function parsePolicy(document: unknown): Statement[] {
  let doc = document;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc.startsWith('%7B') || doc.startsWith('%7b') ? decodeURIComponent(doc) : doc);
    } catch {
      return [];
    }
  }
  if (typeof doc !== 'object' || doc === null) return [];
  const statements = (doc as { Statement?: unknown }).Statement;
  const list = Array.isArray(statements) ? statements : statements ? [statements] : [];
  return list.filter((s): s is Statement => typeof s === 'object' && s !== null);
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/**
 * `READS_FROM` / `WRITES_TO` from the verbs of the actions, as far as they say; otherwise
 * `POLICY_ALLOWS_ACTION`. A same-account trust is `ROLE_ASSUMES_ROLE` (INVENTORY_INTERNALS.md,
 * the iam task's relations), a cross-account one `CROSS_ACCOUNT_TRUST`.
 */
function relationshipOf(actions: string[]): string {
  const verbs = actions.map((a) => a.split(':')[1] ?? a);
  const reads = verbs.some(
    (v) => /^(Get|List|Describe|Read|Query|Scan|BatchGet|Select)/i.test(v) || v === '*',
  );
  const writes = verbs.some((v) => /^(Put|Write|Update|Delete|Create|BatchWrite)/i.test(v) || v === '*');
  if (reads && !writes) return 'READS_FROM';
  if (writes && !reads) return 'WRITES_TO';
  // Neither or both: the reference's relationship for a policy grant.
  return 'POLICY_ALLOWS_ACTION';
}

/**
 * Where an identity policy's resource ARN points. `rds-db:connect` names the database by its
 * resource id (`dbuser:<dbi-resource-id>/<user>`), which the RDS collector records; S3 object
 * ARNs (`bucket/key*`) name their bucket. Wildcards other than a trailing object path resolve to
 * nothing in particular and are skipped.
 */
function resourceTarget(resource: string): string | null {
  const rdsDb = /^arn:aws[a-z-]*:rds-db:[^:]*:\d{12}:dbuser:([^/]+)\//.exec(resource);
  if (rdsDb) return rdsDb[1] ?? null;
  const s3 = /^(arn:aws[a-z-]*:s3:::[^/*]+)(\/.*)?$/.exec(resource);
  if (s3) return s3[1] ?? null;
  if (resource.includes('*') || !resource.startsWith('arn:')) return null;
  return resource;
}

/**
 * The grants of an identity policy as relations of the identity holding it: `GRANTS_ACCESS` to
 * each named resource, `IAM_TRUST` to a role it may assume (`sts:AssumeRole`).
 */
export function identityPolicyRelations(document: unknown, account: string): Relation[] {
  const out: Relation[] = [];
  for (const s of parsePolicy(document)) {
    if (s.Effect !== 'Allow') continue;
    const actions = list(s.Action);
    const relationship = relationshipOf(actions);
    for (const resource of list(s.Resource)) {
      const target = resourceTarget(resource);
      if (!target) continue;
      if (actions.some((a) => /^sts:AssumeRole/i.test(a)) && /:iam::\d{12}:role\//.test(target)) {
        const other = /:iam::(\d{12}):/.exec(target)?.[1];
        const r = rel(
          target,
          'IAM_TRUST',
          other && other !== account ? 'CROSS_ACCOUNT_TRUST' : 'ROLE_ASSUMES_ROLE',
          {
            properties: { cross_account: other && other !== account ? true : undefined },
          },
        );
        if (r) out.push(r);
        continue;
      }
      const r = rel(target, 'GRANTS_ACCESS', relationship, { properties: { actions: actions.slice(0, 20) } });
      if (r) out.push(r);
    }
  }
  return out;
}

/**
 * A role's trust policy as reverse `IAM_TRUST` relations: each AWS principal (an account id, an
 * account root, a role or user ARN) may assume the role. Service and federated principals are
 * recorded in metadata by the caller, not linked. Conditions are copied as written.
 */
export function trustRelations(
  document: unknown,
  account: string,
): { relations: Relation[]; services: string[]; anyone: boolean } {
  const relationsOut: Relation[] = [];
  const services: string[] = [];
  let anyone = false;
  for (const s of parsePolicy(document)) {
    if (s.Effect !== 'Allow') continue;
    if (s.Principal === '*' || (typeof s.Principal === 'object' && list(s.Principal.AWS).includes('*')))
      anyone = true;
    if (typeof s.Principal !== 'object' || s.Principal === null) continue;
    services.push(...list(s.Principal.Service));
    const conditions = s.Condition;
    const externalId = JSON.stringify(conditions ?? {}).includes('sts:ExternalId');
    for (const principal of list(s.Principal.AWS)) {
      if (principal === '*') continue;
      const principalAccount = /^\d{12}$/.test(principal)
        ? principal
        : (/:(\d{12}):/.exec(principal)?.[1] ?? null);
      const target = /^\d{12}$/.test(principal) ? `arn:aws:iam::${principal}:root` : principal;
      const cross = principalAccount !== null && principalAccount !== account;
      const r = rel(target, 'IAM_TRUST', cross ? 'CROSS_ACCOUNT_TRUST' : 'ROLE_ASSUMES_ROLE', {
        reverse: true,
        description: `${target} can assume this role`,
        properties: {
          conditions,
          external_id_required: externalId || undefined,
          cross_account: cross || undefined,
        },
      });
      if (r) relationsOut.push(r);
    }
  }
  return { relations: relationsOut, services, anyone };
}

/**
 * A resource policy's grants (a KMS key policy, say) as reverse `GRANTS_ACCESS` /
 * `POLICY_ALLOWS_ACTION` relations from each AWS principal it allows (INVENTORY_REFERENCE.md 7:
 * "resource policy grant"), `cross_account` when the principal lives in another account, so the
 * linker hangs grants to unmapped accounts on external account placeholders. The account's own
 * root is left out: it only delegates to the account's IAM policies, which are linked already.
 * `public` says whether any statement allows `*`.
 */
export function resourcePolicyGrants(
  document: unknown,
  account: string,
): { relations: Relation[]; public: boolean } {
  const out: Relation[] = [];
  let open = false;
  for (const s of parsePolicy(document)) {
    if (s.Effect !== 'Allow') continue;
    const principals =
      s.Principal === '*'
        ? ['*']
        : typeof s.Principal === 'object' && s.Principal
          ? list(s.Principal.AWS)
          : [];
    const actions = list(s.Action);
    for (const principal of principals) {
      if (principal === '*') {
        open = true;
        continue;
      }
      const principalAccount = /^\d{12}$/.test(principal)
        ? principal
        : (/:(\d{12}):/.exec(principal)?.[1] ?? null);
      const target = /^\d{12}$/.test(principal) ? `arn:aws:iam::${principal}:root` : principal;
      if (principalAccount === account && /:root$/.test(target)) continue;
      const cross = principalAccount !== null && principalAccount !== account;
      const r = rel(target, 'GRANTS_ACCESS', 'POLICY_ALLOWS_ACTION', {
        reverse: true,
        description: 'resource policy grant',
        properties: { cross_account: cross || undefined, actions: actions.slice(0, 20) },
      });
      if (r) out.push(r);
    }
  }
  return { relations: out, public: open };
}
