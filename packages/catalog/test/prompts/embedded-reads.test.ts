/**
 * A prompt that embeds a resource reads it through the layer as its caller: the policy's
 * access decision, rate limit and decision log apply to that read, and its output pipeline
 * runs once, so the embedded copy is exactly what the caller's own `resources/read` returns.
 */
import { type EmbeddedResource, type Layer, Principal, type PromptResult } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { describe, expect, it } from 'vitest';
import { createCatalogLayer, type Workspace } from '../../src/index.js';
import { privacyWorkspace, VAULT_KEY } from '../privacy-profiles/support.js';

const ASSET_TEMPLATE = 'cloudg://assets/{+ref}';

async function layerUnder(policy: Policy): Promise<Layer<Workspace>> {
  return createCatalogLayer({ workspace: await privacyWorkspace(), policy });
}

function load(source: string | Record<string, unknown>): Policy {
  return Policy.load(source, { vaultEnv: { CLOUDG_MCP_VAULT_KEY: VAULT_KEY } });
}

function embedded(result: PromptResult): EmbeddedResource[] {
  return result.messages.map((m) => m.content).filter((c): c is EmbeddedResource => c.type === 'resource');
}

function textOf(block: EmbeddedResource | undefined): string {
  const resource = block?.resource as { text?: string } | undefined;
  return resource?.text ?? '';
}

describe('resources embedded in prompts', () => {
  it('under strict: the embedded copy is the caller’s own read, pseudonymised once', async () => {
    const layer = await layerUnder(load('strict'));
    const prompt = await layer.getPrompt('investigate_asset', { ref: 'web-1' });
    const [block] = embedded(prompt);
    const [direct] = await layer.readResource('cloudg://assets/web-1');
    expect(block?.resource).toEqual(direct);
    const text = textOf(block);
    expect(text).not.toContain('web-1');
    expect(text).not.toContain('111111111111');
    // One pseudonym per value: the id, name and URI carry the same one.
    const data = JSON.parse(text) as { id: string; name: string; uri: string };
    expect(data.id).toMatch(/^res-[0-9a-f]{10}$/);
    expect(data.uri).toBe(`cloudg://assets/${data.id}`);
    expect(block?.resource.uri).toBe(`cloudg://assets/${data.id}`);
  });

  it('under standard: untrusted text inside is fenced once, not the whole document again', async () => {
    const layer = await layerUnder(load('standard'));
    const [block] = embedded(await layer.getPrompt('investigate_asset', { ref: 'web-1' }));
    const [direct] = await layer.readResource('cloudg://assets/web-1');
    expect(block?.resource).toEqual(direct);
    expect(textOf(block).startsWith('{')).toBe(true);
  });

  it('are recorded in the decision log as resource reads of the caller', async () => {
    const policy = load({ extends: 'open', name: 'audited', audit: true });
    const layer = await layerUnder(policy);
    const ann = new Principal({ id: 'ann', roles: ['analyst'] });
    await layer.getPrompt('investigate_asset', { ref: 'web-1' }, { principal: ann });
    expect(policy.auditLog.map((e) => [e.decision, e.kind, e.name, e.principal])).toEqual([
      ['allowed', 'prompt', 'investigate_asset', 'ann'],
      ['allowed', 'resource_template', ASSET_TEMPLATE, 'ann'],
    ]);
  });

  it('count against the caller’s rate limit for resources', async () => {
    const policy = load({
      extends: 'open',
      name: 'one-read',
      rate_limits: [{ rate: 1, per: 'hour', kinds: ['resource'] }],
    });
    const layer = await layerUnder(policy);
    await layer.getPrompt('investigate_asset', { ref: 'web-1' });
    await expect(layer.getPrompt('investigate_asset', { ref: 'web-1' })).rejects.toMatchObject({
      code: -31029,
    });
  });

  it('are left out when the caller may not read the resource, hidden or denied', async () => {
    for (const hide of [true, false]) {
      const policy = load({
        extends: 'open',
        name: 'no-assets',
        hide_denied: hide,
        deny_resources: [ASSET_TEMPLATE],
      });
      const layer = await layerUnder(policy);
      const prompt = await layer.getPrompt('investigate_asset', { ref: 'web-1' });
      expect(embedded(prompt)).toEqual([]);
      expect(JSON.stringify(prompt.toWire())).not.toContain('"arn"');
      if (!hide)
        expect(policy.auditLog.some((e) => e.decision === 'denied' && e.name === ASSET_TEMPLATE)).toBe(true);
    }
  });
});
