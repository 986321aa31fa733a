import { Principal } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { describe, expect, it } from 'vitest';
import { createCatalogLayer } from '../../src/index.js';
import { privacyWorkspace, profileLayer, VAULT_KEY } from '../privacy-profiles/support.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate, readJson } from '../tools/support.js';

describe('cloudg://policy', () => {
  it("is the open profile's describe() with vault statistics, counters and the profiles", async () => {
    const { layer } = await profileLayer('open');
    await call(layer, 'workspace_status');
    const policy = await readJson(layer, 'cloudg://policy');
    expect(policy).toMatchObject({
      name: 'open',
      loaded_from: 'profile:open',
      extends: [],
      deny_tools: [],
      deny_resources: [],
      deny_prompts: [],
      deny_categories: [],
      hide_denied: true,
      honor_hints: true,
      transforms: [],
      input_transforms: [],
      transform_options: {},
      rules: [],
      rate_limits: [],
      vault: { key_env: 'CLOUDG_MCP_VAULT_KEY', scope: 'global', entries: 0, by_entity: {} },
    });
    expect((policy.counters as Record<string, number>).allowed).toBeGreaterThan(0);
    expect(policy.available_profiles).toEqual(expect.arrayContaining(['open', 'standard', 'strict']));
  });

  it('never shows the vault key, from the environment or from the document', async () => {
    const fromEnv = (await profileLayer('standard')).layer;
    expect(JSON.stringify(await readJson(fromEnv, 'cloudg://policy'))).not.toContain(VAULT_KEY);

    const secret = 'document-vault-key-0123456789';
    const policy = Policy.load({ name: 'keyed', extends: 'standard', vault: { key: secret } });
    const layer = createCatalogLayer({ workspace: await privacyWorkspace(), policy });
    const text = JSON.stringify(await readJson(layer, 'cloudg://policy'));
    expect(text).not.toContain(secret);
    expect(JSON.parse(text).vault).toMatchObject({ key_set: true });
  });

  it('shows transforms by type, id and option names, not the option values', async () => {
    const policy = Policy.load({
      name: 'aliased',
      transforms: [{ type: 'alias', options: { aliases: { aws_account_id: { '111111111111': 'prod' } } } }],
    });
    const layer = createCatalogLayer({ workspace: workspaceAt(estate), policy });
    const described = await readJson(layer, 'cloudg://policy');
    expect(JSON.stringify(described)).not.toContain('111111111111');
    expect(described.transforms).toEqual([
      { type: expect.any(String), id: expect.any(String), options: ['aliases'] },
    ]);
  });

  it('is internal: hidden from a role whose ceiling is public', async () => {
    const policy = Policy.load({
      name: 'public-only',
      roles: { guest: { max_sensitivity: 'public' } },
    });
    const layer = createCatalogLayer({ workspace: workspaceAt(estate), policy });
    const guest = new Principal({ id: 'g', roles: ['guest'] });
    expect(layer.listResources(guest).map((r) => r.uri)).not.toContain('cloudg://policy');
    expect(layer.listResources(guest).map((r) => r.uri)).toContain('cloudg://privacy/detectors');
  });

  it('names only the policy under one that cannot describe itself', async () => {
    const layer = createCatalogLayer({ workspace: workspaceAt(estate) });
    expect(await readJson(layer, 'cloudg://policy')).toEqual({
      name: 'allow-all',
      description: null,
      loaded_from: null,
      available_profiles: [],
    });
  });
});
