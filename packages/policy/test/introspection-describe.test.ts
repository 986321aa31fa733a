/** `introspection.describe()`: what `cloudg://policy` shows of a policy. */
import { describe, expect, it } from 'vitest';
import { Policy } from '../src/index.js';

describe('introspection.describe', () => {
  it('is describe() plus vault statistics, decision counters and the built-in profiles', () => {
    const policy = Policy.fromProfile('open', { vaultEnv: {} });
    const view = policy.introspection.describe();
    expect(view).toMatchObject({
      ...policy.describe(),
      vault: {
        key_env: 'CLOUDG_MCP_VAULT_KEY',
        key_set: false,
        entries: 0,
        by_entity: {},
        key_source: 'random',
      },
      counters: {},
    });
    expect(view.available_profiles).toEqual(expect.arrayContaining(['open', 'standard', 'strict']));
  });

  it('never holds the vault key, nor the option values of a transform', () => {
    const key = 'described-vault-key-42';
    const policy = Policy.load({
      name: 'keyed',
      vault: { key },
      transforms: [{ type: 'alias', options: { aliases: { aws_account_id: { '111111111111': 'prod' } } } }],
    });
    const text = JSON.stringify(policy.introspection.describe());
    expect(text).not.toContain(key);
    expect(text).not.toContain('111111111111');
    expect(policy.introspection.describe().vault).toMatchObject({ key_set: true });
  });
});
