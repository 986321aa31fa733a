/** One error model: the server's errors are core's `McpLayerError`, each with a code and data. */
import { McpLayerError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import * as server from '../src/index.js';

const samples: Record<string, () => Error> = {
  DatasetSpecError: () =>
    new server.DatasetSpecError('Invalid --dataset value', { value: 'x=', reason: 'the path is empty' }),
  ServeOptionsError: () => new server.ServeOptionsError('--stateless needs the http transport'),
  RedisStartError: () => new server.RedisStartError('redis://127.0.0.1:1', new Error('connect ECONNREFUSED')),
};

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    const exported = Object.entries(server)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    for (const name of exported) expect(Object.keys(samples)).toContain(name);
  });

  it.each(Object.entries(samples))('%s is an McpLayerError with a string code and data', (name, make) => {
    const error = make() as McpLayerError;
    expect(error).toBeInstanceOf(McpLayerError);
    expect(error.name).toBe(name);
    expect(typeof error.code).toBe('string');
    expect(error.data).toBeTypeOf('object');
  });

  it('keeps what the CLI reads: the value and the reason', () => {
    expect(samples.DatasetSpecError?.()).toMatchObject({
      code: 'invalid_dataset_spec',
      value: 'x=',
      reason: 'the path is empty',
      data: { value: 'x=', reason: 'the path is empty' },
    });
    expect(samples.ServeOptionsError?.()).toMatchObject({ code: 'invalid_serve_options', data: {} });
  });
});
