import { describe, expect, it } from 'vitest';
import { TokenVault, VaultConfigError, VaultFormatError } from './index.js';

const KEY = 'docs-example-key';

describe('keys', () => {
  it('takes the key from the option, then the environment variable, then random bytes', () => {
    const config = new TokenVault({ key: KEY, env: { CLOUDG_MCP_VAULT_KEY: 'env-key' } });
    const env = new TokenVault({ env: { CLOUDG_MCP_VAULT_KEY: KEY } });
    const custom = new TokenVault({ keyEnv: 'MY_KEY', env: { MY_KEY: KEY } });
    const random = new TokenVault({ env: {} });
    expect(config.stats().key_source).toBe('config');
    expect(env.stats().key_source).toBe('env');
    expect(custom.stats().key_source).toBe('env');
    expect(random.stats().key_source).toBe('random');
    // A string key and the same bytes from the environment are the same key.
    expect(env.keyId).toBe(config.keyId);
    expect(env.pseudonymize('web-1', 'resource_name')).toBe(config.pseudonymize('web-1', 'resource_name'));
    expect(random.keyId).not.toBe(new TokenVault({ env: {} }).keyId);
  });

  it('reports a 12-hex key id that does not contain the key', () => {
    const vault = new TokenVault({ key: new Uint8Array(32).fill(7) });
    expect(vault.keyId).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(vault.stats())).not.toContain('0707');
  });

  it('rejects a non-positive TTL and an empty key', () => {
    expect(() => new TokenVault({ key: KEY, ttlSeconds: 0 })).toThrow(VaultConfigError);
    expect(() => new TokenVault({ key: KEY, ttlSeconds: -5 })).toThrow(VaultConfigError);
    expect(() => new TokenVault({ key: '' })).toThrow(VaultConfigError);
  });
});

describe('namespaces', () => {
  it('derives the namespace from the scope', () => {
    expect(new TokenVault({ key: KEY }).namespaceFor('alice')).toBe('global');
    expect(new TokenVault({ key: KEY, scope: 'principal' }).namespaceFor('alice')).toBe('p:alice');
  });

  it('gives each namespace its own pseudonyms, reversible only in that namespace', () => {
    const vault = new TokenVault({ key: KEY, scope: 'principal' });
    const arn = 'arn:aws:ec2:us-east-1:111111111111:instance/web-1';
    const a = vault.pseudonymize(arn, 'aws_arn', { namespace: vault.namespaceFor('a') });
    const b = vault.pseudonymize(arn, 'aws_arn', { namespace: vault.namespaceFor('b') });
    expect(a).not.toBe(b);
    expect(vault.detokenize(a, { namespace: 'p:a' })).toBe(arn);
    expect(vault.detokenize(a, { namespace: 'p:b' })).toBeUndefined();
    expect(vault.detokenize(a)).toBeUndefined();
    expect(vault.detokenizeText(`see ${a}`, { namespace: 'p:b' })).toBe(`see ${a}`);
    expect(vault.stats().namespaces).toEqual({ 'p:a': 3, 'p:b': 3 });
  });
});

describe('lookup, entry and stats', () => {
  it('looks up without creating, and describes an entry', () => {
    let now = 1_700_000_000_000;
    const vault = new TokenVault({ key: KEY, clock: () => now });
    expect(vault.lookup('web-1', 'resource_name')).toBeUndefined();
    expect(vault.stats().entries).toBe(0);
    const p = vault.pseudonymize('web-1', 'resource_name');
    now += 5000;
    expect(vault.lookup('web-1', 'resource_name')).toBe(p);
    expect(vault.lookup('web-1', 'person')).toBeUndefined();
    expect(vault.entry(p)).toEqual({
      namespace: 'global',
      entity: 'resource_name',
      real: 'web-1',
      pseudonym: p,
      created: 1_700_000_000,
      lastUsed: 1_700_000_005,
    });
    expect(vault.entry('res-0000000000')).toBeUndefined();
  });

  it('counts issued, reused and detokenized values and marks the vault dirty', () => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.dirty).toBe(false);
    const p = vault.pseudonymize('web-1', 'resource_name');
    vault.pseudonymize('web-1', 'resource_name');
    vault.detokenize(p);
    vault.detokenize('nothing');
    const s = vault.stats();
    expect(s.counters).toMatchObject({ issued: 1, reused: 1, detokenized: 1, misses: 1, collisions: 0 });
    expect(s.entities).toEqual({ resource_name: 1 });
    expect(s.dirty).toBe(true);
    expect(vault.issuedSinceSave).toBe(1);
  });
});

describe('TTL', () => {
  it('forgets a mapping unused for ttlSeconds, and restarts the clock on every use', () => {
    let now = 0;
    const vault = new TokenVault({ key: KEY, ttlSeconds: 60, clock: () => now });
    const p = vault.pseudonymize('web-1', 'resource_name');
    now = 50_000;
    expect(vault.detokenize(p)).toBe('web-1'); // used at 50 s: expires at 110 s now
    now = 100_000;
    expect(vault.detokenize(p)).toBe('web-1');
    now = 161_000;
    expect(vault.detokenize(p)).toBeUndefined();
    expect(vault.stats()).toMatchObject({ entries: 0, counters: { expired: 1 } });
    // Deterministic: the value gets the same pseudonym again when seen again.
    expect(vault.pseudonymize('web-1', 'resource_name')).toBe(p);
  });

  it('drops the rest with purgeExpired', () => {
    let now = 0;
    const vault = new TokenVault({ key: KEY, ttlSeconds: 10, clock: () => now });
    vault.pseudonymize('a', 'person');
    vault.pseudonymize('b', 'person');
    now = 8_000;
    const c = vault.pseudonymize('c', 'person');
    now = 15_000;
    expect(vault.purgeExpired()).toBe(2);
    expect(vault.stats().entries).toBe(1);
    expect(vault.detokenize(c)).toBe('c');
    expect(vault.lookup('a', 'person')).toBeUndefined();
  });

  it('never exports an expired mapping', () => {
    let now = 0;
    const vault = new TokenVault({ key: KEY, ttlSeconds: 10, clock: () => now });
    vault.pseudonymize('a', 'person');
    now = 5_000;
    vault.pseudonymize('b', 'person');
    now = 12_000;
    expect(vault.export().entries.map((e) => e[2])).toEqual(['b']);
  });

  it('purges nothing without a TTL', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize('a', 'person');
    expect(vault.purgeExpired()).toBe(0);
  });
});

describe('collisions', () => {
  it('re-derives when a pseudonym is taken by another value, and counts it', () => {
    // One-digit numbers have nine possible pseudonyms: nine values are bound to clash.
    const vault = new TokenVault({ key: KEY });
    const out = new Map<string, string>();
    for (let d = 1; d <= 9; d++) out.set(String(d), vault.pseudonymize(String(d), 'number'));
    expect(new Set(out.values()).size).toBe(9);
    for (const [real, p] of out) expect(vault.detokenize(p)).toBe(real);
    expect(vault.stats().counters.collisions).toBeGreaterThan(0);
    // The alternative sticks: asking again gives the same answer.
    for (const [real, p] of out) expect(vault.pseudonymize(real, 'number')).toBe(p);
  });

  it('falls back to the generic prefix-hex format after 48 attempts', () => {
    const vault = new TokenVault({ key: KEY });
    // Every one-digit pseudonym is already held by some other value.
    const taken = Array.from({ length: 9 }, (_, i) => ['global', 'number', `x${i}`, String(i + 1), 0, 0]);
    vault.importMappings({ format: 'cloudg-vault/1', key_id: 'other', entries: taken });
    const p = vault.pseudonymize('5', 'number');
    expect(p).toMatch(/^number-[0-9a-f]{10}$/);
    expect(vault.detokenize(p)).toBe('5');
    expect(vault.stats().counters).toMatchObject({ collisions: 48, fallbacks: 1 });
  });
});

describe('export and import', () => {
  it('exports every mapping as cloudg-vault/1 entries', () => {
    const vault = new TokenVault({ key: KEY, clock: () => 1_791_470_271_735 });
    const p = vault.pseudonymize('web-1', 'resource_name', { namespace: 'p:a' });
    expect(vault.export()).toEqual({
      format: 'cloudg-vault/1',
      key_id: vault.keyId,
      entries: [['p:a', 'resource_name', 'web-1', p, 1_791_470_271.735, 1_791_470_271.735]],
    });
    expect(vault.export('global').entries).toEqual([]);
  });

  it('imports mappings made under another key, without overwriting unless asked', () => {
    const old = new TokenVault({ key: 'old-key' });
    const oldP = old.pseudonymize('web-1', 'resource_name');
    old.pseudonymize('db-1', 'resource_name');
    const vault = new TokenVault({ key: KEY });
    const newP = vault.pseudonymize('web-1', 'resource_name');
    expect(vault.importMappings(old.export())).toBe(1); // db-1 only; web-1 already mapped
    expect(vault.detokenize(oldP)).toBeUndefined();
    expect(vault.importMappings(old.export(), { overwrite: true })).toBe(1);
    expect(vault.detokenize(oldP)).toBe('web-1');
    expect(vault.lookup('web-1', 'resource_name')).toBe(oldP);
    expect(vault.detokenize(newP)).toBeUndefined();
    // Importing the same document again adds nothing.
    expect(vault.importMappings(old.export())).toBe(0);
  });

  it('rejects a malformed document as a whole', () => {
    const vault = new TokenVault({ key: KEY });
    expect(() => vault.importMappings({ format: 'other', entries: [] })).toThrow(VaultFormatError);
    expect(() => vault.importMappings(null)).toThrow(VaultFormatError);
    expect(() =>
      vault.importMappings({
        format: 'cloudg-vault/1',
        entries: [
          ['global', 'person', 'a', 'person-1', 0, 0],
          ['global', 'person'],
        ],
      }),
    ).toThrow(VaultFormatError);
    expect(vault.stats().entries).toBe(0);
  });

  it('clears everything or one namespace', () => {
    const vault = new TokenVault({ key: KEY });
    vault.pseudonymize('a', 'person');
    vault.pseudonymize('a', 'person', { namespace: 'p:x' });
    expect(vault.clear('p:x')).toBe(1);
    expect(vault.stats().namespaces).toEqual({ global: 1 });
    expect(vault.clear()).toBe(1);
    expect(vault.stats().entries).toBe(0);
  });
});
