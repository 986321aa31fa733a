/**
 * One error model: every error class core exports is an `McpLayerError` with a code (a number
 * for JSON-RPC and MCP codes, a string otherwise), a message and `data`, named after its class.
 */
import { describe, expect, it } from 'vitest';
import { InputSchemaError } from '../src/arguments/json-schema.js';
import { McpLayerError, ToolTimeoutError } from '../src/errors.js';
import * as core from '../src/index.js';

/** One instance of each error class, as the package raises it. */
const samples: Record<string, () => Error> = {
  McpLayerError: () => new core.McpLayerError('Internal error'),
  InvalidArgumentsError: () => new core.InvalidArgumentsError('Invalid arguments', { data: [] }),
  NotFoundError: () => new core.NotFoundError('Unknown tool: x', { data: { name: 'x' } }),
  AccessDeniedError: () => new core.AccessDeniedError('Access denied', { data: { reason: 'r' } }),
  RateLimitedError: () => new core.RateLimitedError('Rate limit exceeded', { data: { retry_after: 1 } }),
  CancelledError: () => new core.CancelledError('Request cancelled'),
  ToolTimeoutError: () => new ToolTimeoutError('Tool x timed out'),
  InputSchemaError: () => new InputSchemaError('A tool input schema must have type "object"'),
  DuplicateSpecError: () => new core.DuplicateSpecError('tool', 'x'),
  LayerConfigError: () => new core.LayerConfigError('maxOutputChars must not be negative', 'maxOutputChars'),
  MissingClientCapabilityError: () => new core.MissingClientCapabilityError('elicitation'),
  // Not a failure (the transport turns it into an input_required result), but the same shape.
  InputRequiredSignal: () => new core.InputRequiredSignal({}),
  ClientAnswerTimeoutError: () =>
    new core.ClientAnswerTimeoutError('The client did not answer in time', { data: { timeout_ms: 600_000 } }),
};

function errorClassesOf(exports: Record<string, unknown>): string[] {
  return Object.entries(exports)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
    .map(([name]) => name)
    .sort();
}

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    for (const name of errorClassesOf(core)) expect(Object.keys(samples)).toContain(name);
  });

  it.each(Object.entries(samples))(
    '%s has a code, a message and data, and is an McpLayerError',
    (name, make) => {
      const error = make() as McpLayerError;
      expect(error).toBeInstanceOf(McpLayerError);
      expect(error.name).toBe(name);
      expect(['number', 'string']).toContain(typeof error.code);
      expect(error.code).not.toBe('');
      expect(typeof error.message).toBe('string');
      expect('data' in error).toBe(true);
      const wire = error.toJsonRpc();
      expect(typeof wire.code).toBe('number');
      expect(wire.message).toBe(error.message);
    },
  );

  it('keeps the documented codes, and gives the ones that had none a string code', () => {
    expect(samples.InvalidArgumentsError?.()).toMatchObject({ code: -32602 });
    expect(samples.NotFoundError?.()).toMatchObject({ code: -32602 });
    expect(samples.AccessDeniedError?.()).toMatchObject({ code: -31001 });
    expect(samples.RateLimitedError?.()).toMatchObject({ code: -31029 });
    expect(samples.CancelledError?.()).toMatchObject({ code: -32800 });
    expect(samples.McpLayerError?.()).toMatchObject({ code: -32603 });
    expect(samples.ToolTimeoutError?.()).toMatchObject({ code: 'timeout' });
    expect(samples.InputSchemaError?.()).toMatchObject({ code: 'invalid_input_schema' });
    expect(samples.DuplicateSpecError?.()).toMatchObject({
      code: 'duplicate_spec',
      data: { kind: 'tool', name: 'x' },
      message: 'A tool named "x" is already registered',
    });
    expect(samples.LayerConfigError?.()).toMatchObject({
      code: 'invalid_layer_options',
      data: { option: 'maxOutputChars' },
    });
  });

  it('puts a string-coded error on the wire as an internal error with its message and data', () => {
    expect(new core.DuplicateSpecError('tool', 'x').toJsonRpc()).toEqual({
      code: -32603,
      message: 'A tool named "x" is already registered',
      data: { kind: 'tool', name: 'x' },
    });
  });
});
