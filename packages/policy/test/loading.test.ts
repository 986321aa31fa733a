/** Every way to load a policy (section 5.1), the schema, `extends` (5.2), derive (5.3) and describe. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TokenVault } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import {
  mergePolicyDicts,
  Policy,
  PolicyExtendsCycleError,
  PolicyNotFoundError,
  PolicyParseError,
  PolicyValidationError,
} from '../src/index.js';
import { load, silent } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cloudg-policy-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loading', () => {
  it('defaults to standard, or to CLOUDG_MCP_POLICY when set and not empty', () => {
    expect(load(undefined, { env: {} }).name).toBe('standard');
    expect(load(null, { env: { CLOUDG_MCP_POLICY: '  ' } }).name).toBe('standard');
    const fromEnv = load(undefined, { env: { CLOUDG_MCP_POLICY: 'read-only' } });
    expect([fromEnv.name, fromEnv.loadedFrom]).toEqual(['read_only', 'profile:read_only']);
    const json = load(undefined, { env: { CLOUDG_MCP_POLICY: '{"extends": "strict", "name": "env-json"}' } });
    expect([json.name, json.loadedFrom]).toEqual(['env-json', 'json']);
  });

  it('treats hyphens and underscores in profile names alike', () => {
    expect(load('read-only').name).toBe('read_only');
    expect(load('soc_analyst').name).toBe('soc-analyst');
    expect(load('STRICT').name).toBe('strict');
  });

  it('reads YAML, .yml and JSON files, by path or URL', () => {
    const yaml = write('a.yaml', 'name: from-yaml\nextends: standard\ndeny_tools: ["export_*"]\n');
    const yml = write('b.yml', 'name: from-yml\n');
    const json = write('c.json', '{"name": "from-json", "audit": true}');
    expect(load(yaml).name).toBe('from-yaml');
    expect(load(yaml).loadedFrom).toBe(yaml);
    expect(load(yml).name).toBe('from-yml');
    expect(load(json).config.audit).toBe(true);
    expect(load(pathToFileURL(yaml)).name).toBe('from-yaml');
  });

  it('parses a file without a known suffix as YAML', () => {
    expect(load(write('policy.conf', 'name: conf\n')).name).toBe('conf');
  });

  it('reads inline JSON and plain objects, unwrapping a top-level policy key', () => {
    const inline = load('{"extends": "read_only", "name": "from-env", "audit": true}');
    expect([inline.name, inline.loadedFrom, inline.extendsChain]).toEqual([
      'from-env',
      'json',
      ['standard', 'read_only'],
    ]);
    const dict = load({ policy: { name: 'wrapped', extends: 'open' } });
    expect([dict.name, dict.loadedFrom]).toEqual(['wrapped', 'dict']);
    expect(load(write('w.yaml', 'policy:\n  name: wrapped-file\n')).name).toBe('wrapped-file');
  });

  it('returns a Policy unchanged', () => {
    const policy = load('open');
    expect(Policy.load(policy)).toBe(policy);
  });

  it('refuses unknown names and missing files', () => {
    expect(() => load('no-such-profile')).toThrow(PolicyNotFoundError);
    expect(() => load(join(dir, 'missing.yaml'))).toThrow(PolicyNotFoundError);
    try {
      load('no-such-profile');
    } catch (error) {
      expect((error as PolicyNotFoundError).message).not.toContain('no-such-profile');
      expect((error as PolicyNotFoundError).data.policy).toBe('no-such-profile');
    }
  });

  it('reports bad YAML and JSON', () => {
    expect(() => load('{"name": ')).toThrow(PolicyParseError);
    expect(() => load(write('bad.yaml', 'name: [unclosed\n'))).toThrow(PolicyParseError);
  });
});

describe('schema', () => {
  it('refuses unknown keys anywhere and names the path of every problem', () => {
    const doc = {
      name: 'typos',
      deny_tool: ['x'],
      roles: { analyst: { deny_tools: ['y'], max_sensitivty: 'internal', match: { role: ['z'] } } },
      rules: [{ name: 'ok' }, { rate_limits: [{ rate: 0, per: 'week' }] }],
      vault: { scope: 'everyone' },
      max_sensitivity: 'secret',
      deny_capabilities: ['teleport'],
    };
    let error: PolicyValidationError | undefined;
    try {
      load(doc);
    } catch (e) {
      error = e as PolicyValidationError;
    }
    expect(error).toBeInstanceOf(PolicyValidationError);
    expect(error?.code).toBe('invalid_policy');
    const paths = error?.data.issues.map((i) => i.path).sort();
    expect(paths).toEqual(
      [
        'deny_tool',
        'roles.analyst.max_sensitivty',
        'roles.analyst.match.role',
        'rules[1].rate_limits[0].rate',
        'rules[1].rate_limits[0].per',
        'vault.scope',
        'max_sensitivity',
        'deny_capabilities[0]',
      ].sort(),
    );
    expect(error?.message).toMatch(/^Invalid policy: /);
    expect(error?.message).toContain('roles.analyst.max_sensitivty: unknown key');
  });

  it('fills the documented defaults', () => {
    const c = load({}).config;
    expect(c).toMatchObject({
      name: 'custom',
      description: '',
      hide_denied: true,
      honor_hints: true,
      audit: false,
      audit_size: 1000,
      allow_tools: null,
      deny_tools: [],
      max_sensitivity: null,
      vault: {
        key: null,
        key_env: 'CLOUDG_MCP_VAULT_KEY',
        scope: 'global',
        ttl_seconds: null,
        path: null,
        autosave: false,
        encrypt: true,
      },
    });
    expect(load({ rate_limits: [{ rate: 2.5 }] }).config.rate_limits[0]).toEqual({
      rate: 2.5,
      per: 'minute',
      burst: null,
      scope: 'principal_tool',
      tools: ['*'],
      kinds: [],
    });
  });

  it('accepts transform names and mappings with inline options', () => {
    const policy = load({
      transforms: [
        'Sanitise',
        { transform: 'DLP', id: 'secrets', options: { default: 'keep' } },
        { type: 'shape', max_list: 50 },
      ],
    });
    expect(policy.describe().transforms).toEqual([
      { type: 'sanitize', id: 'sanitize', options: {} },
      { type: 'redact', id: 'secrets', options: { default: 'keep' } },
      { type: 'project', id: 'project', options: { max_list: 50 } },
    ]);
  });
});

describe('extends', () => {
  it('resolves relative paths against the directory of the file that names them', () => {
    const sub = mkdtempSync(join(dir, 'nested-'));
    writeFileSync(join(sub, 'base.yaml'), 'name: base\nextends: strict\ndeny_tools: [a]\n');
    writeFileSync(join(sub, 'child.yaml'), 'extends: ./base.yaml\ndeny_tools: [b]\n');
    const policy = load(join(sub, 'child.yaml'));
    expect(policy.extendsChain).toEqual(['standard', 'strict', 'base']);
    expect(policy.name).toBe('custom(base)');
    expect(policy.config.deny_tools).toEqual(['a', 'b']);
  });

  it('detects cycles', () => {
    write('loop-a.yaml', 'name: a\nextends: loop-b.yaml\n');
    write('loop-b.yaml', 'name: b\nextends: loop-a.yaml\n');
    expect(() => load(join(dir, 'loop-a.yaml'))).toThrow(PolicyExtendsCycleError);
    write('self.yaml', 'extends: self.yaml\n');
    expect(() => load(join(dir, 'self.yaml'))).toThrow("Policy 'extends' cycle");
  });

  it('reproduces the merge example of section 5.2', () => {
    const policy = load({
      name: 'team',
      extends: 'strict',
      deny_tools: ['export_*'],
      roles: { admin: { rate_limits: [{ tools: ['*'], rate: 5 }] } },
      transforms: ['sanitize', { type: 'redact', options: { strategies: { secret: 'redact' } } }],
      transform_options: { sanitize: { max_free_text: 300 } },
      allow_capabilities: ['write_fs'],
    });
    const d = policy.describe();
    expect(d.extends).toEqual(['standard', 'strict']);
    expect(d.deny_capabilities).toEqual(['reveal', 'cloud_access', 'exec', 'write_fs']);
    expect(d.effective_denied_capabilities).toEqual(['cloud_access', 'exec', 'reveal']);
    expect(d.deny_tools).toEqual(['export_*']);
    expect(d.rules).toEqual(['never-reveal']);
    expect(d.rate_limits.map((l) => `${l.tools} ${l.rate}/${l.per}`)).toEqual([
      'reveal_token 30/minute',
      '* 240/minute',
    ]);
    expect(policy.config.roles.admin).toMatchObject({
      allow_capabilities: ['reveal'],
      rate_limits: [{ tools: ['*'], rate: 5 }],
    });
    expect(d.transforms.map((t) => t.type)).toEqual(['sanitize', 'redact']);
    expect(d.transform_options).toEqual({ sanitize: { max_free_text: 300 } });
  });

  it('merges key by key: deny lists grow, rule lists concatenate, allow lists and transforms are replaced', () => {
    const merged = mergePolicyDicts(
      {
        extends: 'x',
        deny_tools: ['a', 'b'],
        allow_tools: ['p'],
        roles: { r: { deny_categories: ['c1'], rate_limits: [{ rate: 1 }], allow_tools: ['q'] } },
        transforms: ['sanitize'],
        detectors: [{ name: 'd1' }],
        disabled_detectors: ['email'],
      },
      {
        extends: 'y',
        deny_tools: ['b', 'c'],
        allow_tools: ['z'],
        roles: { r: { deny_categories: ['c2'], rate_limits: [{ rate: 2 }], allow_tools: [] } },
        transforms: [],
        detectors: [{ name: 'd2' }],
        disabled_detectors: ['hostname'],
      },
    );
    expect(merged).toEqual({
      deny_tools: ['a', 'b', 'c'],
      allow_tools: ['z'],
      roles: {
        r: { deny_categories: ['c1', 'c2'], rate_limits: [{ rate: 1 }, { rate: 2 }], allow_tools: [] },
      },
      transforms: [],
      detectors: [{ name: 'd1' }, { name: 'd2' }],
      disabled_detectors: ['email', 'hostname'],
    });
  });
});

describe('derive and describe', () => {
  it('derive merges overrides, keeps the name and the vault, and extends the chain', () => {
    const vault = new TokenVault({ key: 'k' });
    const base = Policy.load('strict', { logger: silent, vault });
    const derived = base.derive({ audit: true });
    expect(derived.name).toBe('strict');
    expect(derived.loadedFrom).toBe('derived:strict');
    expect(derived.extendsChain).toEqual(['standard', 'strict']);
    expect(derived.config.audit).toBe(true);
    expect(derived.vault).toBe(base.vault);
    const narrow = load('standard').derive({
      deny_tools: ['map_inventory'],
      max_sensitivity: 'internal',
      name: 'narrow',
    });
    expect([narrow.name, narrow.loadedFrom, narrow.config.max_sensitivity]).toEqual([
      'narrow',
      'derived:narrow',
      'internal',
    ]);
  });

  it('never shows the vault key', () => {
    const d = load({ vault: { key: 'super-secret-key', path: '/tmp/v.json' } }).describe();
    expect(JSON.stringify(d)).not.toContain('super-secret-key');
    expect(d.vault).toMatchObject({ key_set: true, path: '/tmp/v.json', scope: 'global' });
  });
});
