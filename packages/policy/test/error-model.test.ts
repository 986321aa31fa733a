/** One error model: the policy's errors are core's `McpLayerError` with string codes and data. */
import { McpLayerError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import * as policy from '../src/index.js';

const samples: Record<string, () => Error> = {
  PolicyError: () => new policy.PolicyError('invalid_policy', 'Invalid policy: name: expected string'),
  PolicyValidationError: () =>
    new policy.PolicyValidationError([{ path: 'name', message: 'expected string' }]),
  PolicyNotFoundError: () => new policy.PolicyNotFoundError('Unknown policy profile', { value: 'x' }),
  PolicyParseError: () => new policy.PolicyParseError('Policy is not valid YAML', {}),
  PolicyExtendsCycleError: () => new policy.PolicyExtendsCycleError(['a', 'b', 'a']),
  InvalidTransformError: () => new policy.InvalidTransformError("A transform mapping needs 'type'"),
};

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    const exported = Object.entries(policy)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    for (const name of exported) expect(Object.keys(samples)).toContain(name);
  });

  it.each(Object.entries(samples))('%s is an McpLayerError with a string code and data', (name, make) => {
    const error = make() as McpLayerError;
    expect(error).toBeInstanceOf(McpLayerError);
    expect(error).toBeInstanceOf(policy.PolicyError);
    expect(error.name).toBe(name);
    expect(typeof error.code).toBe('string');
    expect(error.data).toBeTypeOf('object');
  });

  it('keeps the documented codes', () => {
    expect(samples.PolicyValidationError?.()).toMatchObject({ code: 'invalid_policy' });
    expect(samples.PolicyNotFoundError?.()).toMatchObject({ code: 'policy_not_found' });
    expect(samples.PolicyParseError?.()).toMatchObject({ code: 'policy_parse_error' });
    expect(samples.PolicyExtendsCycleError?.()).toMatchObject({
      code: 'extends_cycle',
      data: { chain: ['a', 'b', 'a'] },
    });
    expect(samples.InvalidTransformError?.()).toMatchObject({ code: 'invalid_transform' });
  });
});
