import { McpLayerError } from '@cloudg/core';

/** One problem in a rules directory: the file (relative to the directory), the path inside it, what is wrong. */
export interface RulesetProblem {
  file: string;
  /** Dotted path of the value (`controls[3].patterns[0]`); empty for the file as a whole. */
  path: string;
  message: string;
}

export interface RulesetErrorData {
  rules_dir: string;
  problems: RulesetProblem[];
}

/** How many problems the message spells out; `data.problems` always has all of them. */
const LISTED = 10;

/**
 * The configured rules directory cannot be used. The compliance tools fail with this rather
 * than map against a partial set of rules: a silently skipped file makes posture look better
 * than it is. The message names each file and path (the operator's own files, not caller data).
 */
export class RulesetError extends McpLayerError {
  override readonly code = 'invalid_rulesets';
  declare readonly data: RulesetErrorData;

  constructor(rulesDir: string, problems: RulesetProblem[]) {
    const listed = problems
      .slice(0, LISTED)
      .map((p) => `${p.file}${p.path ? ` ${p.path}` : ''}: ${p.message}`)
      .join('; ');
    const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : '';
    super(
      `The compliance rulesets (rulesets.rules_dir) have ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${listed}${more}`,
      { data: { rules_dir: rulesDir, problems } },
    );
  }
}
