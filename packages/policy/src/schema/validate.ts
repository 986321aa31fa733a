/** Validation of policy documents, with one issue per problem and the dotted path of each. */
import { configProblems } from '@cloudg/core';
import { PolicyValidationError } from '../errors.js';
import { type PolicyConfig, PolicySchema } from './config.js';

/** Validate a document and fill in the defaults; throws PolicyValidationError. */
export function validatePolicy(doc: unknown, source?: string): PolicyConfig {
  const result = PolicySchema.safeParse(doc);
  if (!result.success) throw new PolicyValidationError(configProblems(result.error), source);
  return result.data;
}
