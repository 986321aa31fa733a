/**
 * One error model: every error class the package exports is a `PrivacyError` with a code, a
 * message and `data` (the shape of @cloudg/core's `McpLayerError`, without depending on it).
 */
import { describe, expect, it } from 'vitest';
import * as privacy from '../src/index.js';
import { MiniYamlError } from '../src/util/mini-yaml.js';

const samples: Record<string, () => Error> = {
  PrivacyError: () => new privacy.PrivacyError('bad_strategy', 'Invalid redaction strategy: x'),
  UnknownTransformError: () => new privacy.UnknownTransformError('nope', ['redact']),
  TransformSpecError: () => new privacy.TransformSpecError("A transform spec needs a 'type'"),
  TransformOptionsError: () => new privacy.TransformOptionsError('redact', 'unknown option'),
  DetectorConfigError: () => new privacy.DetectorConfigError('ticket', 'bad pattern'),
  StrategyError: () => new privacy.StrategyError('unknown strategy'),
  SecretArgumentError: () => new privacy.SecretArgumentError(['password']),
  VaultError: () => new privacy.VaultError('Vault file is not cloudg-vault/1'),
  VaultConfigError: () => new privacy.VaultConfigError('Vault scope must be global or principal'),
  VaultFormatError: () => new privacy.VaultFormatError('Vault file is not cloudg-vault/1'),
  VaultAuthenticationError: () => new privacy.VaultAuthenticationError(),
  VaultIoError: () => new privacy.VaultIoError('Could not write the vault file'),
  MiniYamlError: () => new MiniYamlError('unterminated string', 3),
};

describe('the error model', () => {
  it('covers every error class the entry point exports', () => {
    const exported = Object.entries(privacy)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    for (const name of exported) expect(Object.keys(samples)).toContain(name);
  });

  it.each(Object.entries(samples))(
    '%s has a code, a message and data, and is a PrivacyError',
    (name, make) => {
      const error = make() as privacy.PrivacyError;
      expect(error).toBeInstanceOf(privacy.PrivacyError);
      expect(error.name).toBe(name);
      expect(['number', 'string']).toContain(typeof error.code);
      expect(typeof error.message).toBe('string');
      expect(error.data).toBeTypeOf('object');
    },
  );

  it('keeps the codes the vault and the transforms had', () => {
    expect(samples.VaultConfigError?.()).toMatchObject({ code: 'vault_config' });
    expect(samples.VaultFormatError?.()).toMatchObject({ code: 'vault_format' });
    expect(samples.VaultAuthenticationError?.()).toMatchObject({
      code: 'vault_authentication',
      message: 'Vault file authentication failed (wrong key or tampered file)',
    });
    expect(samples.VaultIoError?.()).toMatchObject({ code: 'vault_io' });
    expect(samples.SecretArgumentError?.()).toMatchObject({ code: -32602, data: { entities: ['password'] } });
    expect(samples.MiniYamlError?.()).toMatchObject({
      code: 'bad_alias_file',
      message: 'unterminated string on line 3',
      data: { line: 3 },
    });
  });
});
