/** Validation of policy documents, with one issue per problem and the dotted path of each. */
import type * as z from 'zod';
import { type PolicyIssue, PolicyValidationError } from '../errors.js';
import { type PolicyConfig, PolicySchema } from './config.js';

/** `roles.analyst.rate_limits[0].rate` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function issuesOf(error: z.ZodError): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        issues.push({ path: formatPath([...issue.path, key]), message: 'unknown key' });
    } else {
      issues.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return issues;
}

/** Validate a document and fill in the defaults; throws PolicyValidationError. */
export function validatePolicy(doc: unknown, source?: string): PolicyConfig {
  const result = PolicySchema.safeParse(doc);
  if (!result.success) throw new PolicyValidationError(issuesOf(result.error), source);
  return result.data;
}
