/** One error model: the catalog's errors are core's `McpLayerError`, each with a code and data. */
import { McpLayerError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import * as catalog from '../src/index.js';

const samples: Record<string, () => Error> = {
  CloudgConfigError: () => catalog.CloudgConfigError.invalid([{ path: 'aws.regon', message: 'unknown key' }]),
  NoDatasetError: () => catalog.NoDatasetError.unknown('prod', ['sample']),
  ReferenceNotFoundError: () => new catalog.ReferenceNotFoundError('No asset matches the reference.'),
  DatasetExistsError: () => new catalog.DatasetExistsError('sample', 'sample-2'),
  WorkspaceConfigError: () => new catalog.WorkspaceConfigError('No usable allowed root'),
  SuppressionStoreError: () =>
    new catalog.SuppressionStoreError('state_unreadable', 'The suppression state cannot be read', {
      path: '/var/lib/cloudg/suppressions.json',
    }),
  RulesetError: () =>
    new catalog.RulesetError('/etc/cloudg/rules', [
      { file: 'cis.yaml', path: 'controls[0].id', message: 'Required' },
    ]),
  CredentialPreflightError: () =>
    new catalog.CredentialPreflightError('Cannot collect live data. aws: no credentials found.', {
      data: { providers: { aws: 'no credentials found' } },
    }),
  LiveOperationRefusedError: () =>
    new catalog.LiveOperationRefusedError({
      reason: 'cooldown',
      message: 'live collection of aws ran recently; cooling down, retry in 120s or use the cached dataset',
      retry_after_seconds: 120,
      scopes: ['aws'],
      caller: 'local',
      use_dataset: 'live-aws',
    }),
};

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    const exported = Object.entries(catalog)
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

  it('keeps the documented codes', () => {
    expect(samples.CloudgConfigError?.()).toMatchObject({
      code: 'invalid_config',
      data: { problems: [{ path: 'aws.regon', message: 'unknown key' }] },
    });
    expect(samples.NoDatasetError?.()).toMatchObject({ code: -32602 });
    expect(samples.DatasetExistsError?.()).toMatchObject({ code: -32602, data: { existing: 'sample' } });
    expect(samples.CredentialPreflightError?.()).toMatchObject({
      code: -32603,
      data: { providers: { aws: 'no credentials found' } },
    });
    expect(samples.LiveOperationRefusedError?.()).toMatchObject({
      code: -31029,
      data: { reason: 'cooldown', use_dataset: 'live-aws' },
    });
  });
});
