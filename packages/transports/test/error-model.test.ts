/** One error model: the transports' errors are core's `McpLayerError`, each with a code and data. */
import { ErrorCode, McpLayerError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError } from '../src/http/read-body.js';
import * as transports from '../src/index.js';

const samples: Record<string, () => Error> = {
  AuthConfigError: () => new transports.AuthConfigError('An auth token must not be empty'),
  ProtocolError: () => new transports.ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request'),
  BodyTooLargeError: () => new BodyTooLargeError(1024),
};

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    const exported = Object.entries(transports)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    for (const name of exported) expect(Object.keys(samples)).toContain(name);
  });

  it.each(Object.entries(samples))('%s is an McpLayerError with a code and data', (name, make) => {
    const error = make() as McpLayerError;
    expect(error).toBeInstanceOf(McpLayerError);
    expect(error.name).toBe(name);
    expect(['number', 'string']).toContain(typeof error.code);
    expect('data' in error).toBe(true);
  });

  it('keeps the codes', () => {
    expect(samples.AuthConfigError?.()).toMatchObject({ code: 'invalid_auth_config', data: {} });
    expect(samples.BodyTooLargeError?.()).toMatchObject({ code: 'body_too_large', data: { limit: 1024 } });
    expect(samples.ProtocolError?.()).toMatchObject({ code: -32600 });
  });
});
