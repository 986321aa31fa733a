/**
 * Errors raised while loading and compiling policies: core's `McpLayerError` with a string code
 * and a `data` payload. Messages name schema paths and keys, while file paths and other supplied
 * values travel in `data`.
 */
import { McpLayerError } from '@cloudg/core';

export type PolicyErrorCode =
  | 'invalid_policy'
  | 'policy_not_found'
  | 'policy_parse_error'
  | 'extends_cycle'
  | 'invalid_transform';

/** One problem found in a policy document, with the dotted path to it. */
export interface PolicyIssue {
  path: string;
  message: string;
}

/** Base class of the policy's errors. */
export class PolicyError extends McpLayerError {
  override readonly code: PolicyErrorCode;
  declare readonly data: Record<string, unknown>;

  constructor(
    code: PolicyErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, { data, cause: options?.cause });
    this.code = code;
  }
}

/** The document does not match the policy schema; `data.issues` lists every problem. */
export class PolicyValidationError extends PolicyError {
  declare readonly data: { issues: PolicyIssue[]; source?: string };

  constructor(issues: PolicyIssue[], source?: string) {
    const listed = issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
    super(
      'invalid_policy',
      `Invalid policy: ${listed}`,
      source === undefined ? { issues } : { issues, source },
    );
  }
}

/** A profile name or file that does not exist. */
export class PolicyNotFoundError extends PolicyError {
  constructor(message: string, data: Record<string, unknown>) {
    super('policy_not_found', message, data);
  }
}

/** A file or inline string that is not valid YAML or JSON. */
export class PolicyParseError extends PolicyError {
  constructor(message: string, data: Record<string, unknown>, cause?: unknown) {
    super('policy_parse_error', message, data, { cause });
  }
}

/** `extends` leads back to a document already in the chain. */
export class PolicyExtendsCycleError extends PolicyError {
  constructor(chain: string[]) {
    super('extends_cycle', "Policy 'extends' cycle", { chain });
  }
}

/** A transform spec with no type, or a transform that failed to build from its options. */
export class InvalidTransformError extends PolicyError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super('invalid_transform', message, data, { cause });
  }
}
