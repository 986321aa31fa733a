/**
 * Problems in a configuration document (a policy, a cloudg config), one per zod issue, each with
 * the dotted path of the value concerned. Unknown keys are reported one by one, at their own path.
 * Messages are zod's, which describe the expectation and never quote the value.
 */
import type * as z from 'zod';

export interface ConfigProblem {
  /** `roles.analyst.rate_limits[0].rate`, `aws.accounts[0]`; empty for the document itself. */
  path: string;
  message: string;
}

/** `a.b[0].c` from `['a', 'b', 0, 'c']`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function configProblems(error: z.ZodError): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ path: formatConfigPath([...issue.path, key]), message: 'unknown key' });
      }
    } else {
      problems.push({ path: formatConfigPath(issue.path), message: issue.message });
    }
  }
  return problems;
}
