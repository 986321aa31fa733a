/** What leaves a process under the vault key: readable only with that key, for that purpose. */
import { describe, expect, it } from 'vitest';
import { VaultAuthenticationError } from './errors.js';
import { createVaultSealer } from './sealer.js';
import { TokenVault } from './token-vault.js';

describe('the vault sealer', () => {
  const sealer = createVaultSealer({ key: 'a shared vault key' });

  it('opens what it sealed, and never shows the text or repeats a ciphertext', () => {
    const a = sealer.seal('arn:aws:iam::123456789012:role/admin', 'vault');
    const b = sealer.seal('arn:aws:iam::123456789012:role/admin', 'vault');
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').toString('latin1')).not.toContain('123456789012');
    expect(sealer.open(a, 'vault')).toBe('arn:aws:iam::123456789012:role/admin');
  });

  it('refuses another key, another purpose and a damaged value', () => {
    const sealed = sealer.seal('db-1', 'vault');
    expect(() => createVaultSealer({ key: 'another key' }).open(sealed, 'vault')).toThrow(
      VaultAuthenticationError,
    );
    expect(() => sealer.open(sealed, 'workspace-log')).toThrow(VaultAuthenticationError);
    const damaged = Buffer.from(sealed, 'base64');
    damaged.writeUInt8((damaged.at(-1) as number) ^ 1, damaged.length - 1);
    expect(() => sealer.open(damaged.toString('base64'), 'vault')).toThrow(VaultAuthenticationError);
  });

  it('gives equal lookup keys for equal texts under one key only, and a vault seals with its own key', () => {
    expect(sealer.lookup('db-1')).toBe(createVaultSealer({ key: 'a shared vault key' }).lookup('db-1'));
    expect(sealer.lookup('db-1')).not.toBe(sealer.lookup('db-2'));
    expect(sealer.lookup('db-1')).not.toBe(createVaultSealer({ key: 'another key' }).lookup('db-1'));
    const vault = new TokenVault({ key: 'a shared vault key' });
    expect(vault.sealer.open(sealer.seal('x', 'vault'), 'vault')).toBe('x');
    expect(vault.sealer.keyId).toBe(vault.keyId);
  });

  it('gives short lookup keys (22 base64url characters) under one key only, apart from the long ones', () => {
    const short = sealer.shortLookup('db-1');
    expect(short).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(short).toBe(createVaultSealer({ key: 'a shared vault key' }).shortLookup('db-1'));
    expect(short).not.toBe(sealer.shortLookup('db-2'));
    expect(short).not.toBe(createVaultSealer({ key: 'another key' }).shortLookup('db-1'));
    expect(sealer.lookup('db-1')).not.toContain(short);
    // A message longer than the preallocated room, and one in several UTF-8 bytes per character.
    const long = 'é'.repeat(3000);
    expect(sealer.shortLookup(long)).toBe(createVaultSealer({ key: 'a shared vault key' }).shortLookup(long));
    expect(sealer.shortLookup('db-1')).toBe(short);
  });

  it('gives many short lookup keys at once, each the one shortLookup gives', () => {
    const texts = ['db-1', '', 'é'.repeat(40), 'arn:aws:iam::123456789012:role/admin', 'db-1'];
    const keys = sealer.shortLookups(texts);
    expect(keys).toEqual(texts.map((t) => sealer.shortLookup(t)));
    expect(keys[0]).toBe(keys[4]);
    expect(new Set(keys).size).toBe(4);
    expect(sealer.shortLookups([])).toEqual([]);
  });
});
