/**
 * What calls return under real profiles: the privacy transforms run through core's `Layer`, and
 * pseudonyms and aliases the model sees come back to the handler as real values.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, Layer, MetaKey, type Principal, Registry } from '@cloudg/core';
import { TokenVault } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Policy, type PolicySourceValue, PolicyValidationError } from '../src/index.js';
import { as, load, local, silent } from './helpers.js';

const ASSET = {
  id: 'web-1',
  name: 'web-1',
  account_id: '111111111111',
  arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
  metadata: { db_password: 'hunter2-prod', AccessKeyId: 'AKIAIOSFODNN7EXAMPLE' },
  raw_data: { big: 'blob' },
};

function setup(
  source: PolicySourceValue,
  vault: TokenVault | null = new TokenVault({ key: 'docs-example-key' }),
) {
  const seen: unknown[] = [];
  const registry = new Registry();
  registry.add(
    defineTool({
      name: 'get_asset',
      category: 'inventory',
      input: { ref: z.string() },
      outputSchema: { type: 'object' },
      handler: (_ctx, args) => {
        seen.push(args.ref);
        return ASSET;
      },
    }),
  );
  const policy = Policy.load(source, vault ? { logger: silent, vault } : { logger: silent });
  return { policy, seen, layer: new Layer({ policy, registry, logger: silent }) };
}

async function getAsset(layer: Layer, ref: string, principal: Principal = local) {
  const result = await layer.callTool('get_asset', { ref }, { principal });
  return { result, value: result.structured as Record<string, unknown> };
}

describe('pipelines through the layer', () => {
  it('open passes everything through and keeps the outputSchema', async () => {
    const { layer } = setup('open');
    const { value, result } = await getAsset(layer, 'web-1');
    expect(value).toEqual(ASSET);
    expect(result.meta[MetaKey.transforms]).toBeUndefined();
    expect(layer.toolsWire(local)[0]).toHaveProperty('outputSchema');
  });

  it('standard redacts secrets, masks access keys, drops raw data and withholds the outputSchema', async () => {
    const { layer } = setup('standard');
    const { value, result } = await getAsset(layer, 'web-1');
    expect(value.arn).toBe(ASSET.arn);
    expect(value.metadata).toEqual({
      db_password: '[REDACTED:sensitive_field]',
      AccessKeyId: 'AKIA************MPLE',
    });
    expect(value).not.toHaveProperty('raw_data');
    expect(result.meta[MetaKey.transforms]).toMatchObject({ redacted: { sensitive_field: 1 } });
    expect(layer.toolsWire(local)[0]).not.toHaveProperty('outputSchema');
  });

  it('strict pseudonymises identifiers, and a pseudonym passed back reaches the handler as the real value', async () => {
    const { layer, seen } = setup('strict');
    const { value } = await getAsset(layer, 'web-1');
    expect(value.name).not.toBe('web-1');
    expect(value.account_id).toMatch(/^\d{12}$/);
    expect(value.account_id).not.toBe('111111111111');
    expect(String(value.arn)).toContain(String(value.account_id));
    await getAsset(layer, String(value.arn));
    expect(seen).toEqual(['web-1', ASSET.arn]);
  });

  it('soc-analyst shows the prod account by alias to analyst and lead, and reverses the alias on input', async () => {
    const { layer, seen } = setup('soc-analyst');
    const analyst = (await getAsset(layer, 'web-1', as('analyst', 'ann'))).value;
    const lead = (await getAsset(layer, 'web-1', as('lead', 'lee'))).value;
    expect(analyst.account_id).toBe('prod-payments');
    expect(String(analyst.arn)).toMatch(/^arn:aws:ec2:us-east-1:prod-payments:instance\//);
    expect(analyst.name).not.toBe('web-1');
    expect(lead).toMatchObject({ account_id: 'prod-payments', name: 'web-1' });
    expect(lead.arn).toBe('arn:aws:ec2:us-east-1:prod-payments:instance/i-0web1');
    await getAsset(layer, String(analyst.arn), as('analyst', 'ann'));
    await getAsset(layer, 'prod-payments', as('lead', 'lee'));
    expect(seen.slice(2)).toEqual([ASSET.arn, '111111111111']);
  });

  it('error text goes through the output pipeline too', async () => {
    const registry = new Registry();
    registry.add(
      defineTool({
        name: 'boom',
        handler: () => {
          throw new Error('no asset arn:aws:ec2:us-east-1:111111111111:instance/i-0missing');
        },
      }),
    );
    const layer = new Layer({ policy: load('strict'), registry, logger: silent });
    const result = await layer.callTool('boom', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('111111111111');
  });
});

describe('policy-level transforms are built at load time', () => {
  it('an unknown type or a bad option fails immediately, naming where', () => {
    expect(() => load({ transforms: ['no_such_transform'] })).toThrow(/Invalid transform in transforms/);
    expect(() => load({ transforms: [{ type: 'project', options: { max_lst: 3 } }] })).toThrow(
      /Bad options for transform 'project'/,
    );
    expect(() => load({ rules: [{ name: 'r', transforms: ['nope'] }] })).toThrow(/the transforms of 'r'/);
  });

  it('custom detectors are compiled at load time, with the path of each bad one', () => {
    const ticket = {
      name: 'jira_ticket',
      entity: 'ticket_id',
      category: 'internal',
      pattern: '\\b(?:SECOPS|INFRA)-\\d{2,6}\\b',
    };
    expect(load({ extends: 'open', detectors: [ticket] }).config.detectors).toHaveLength(1);
    expect(() => load({ detectors: [ticket, { name: 'x', patern: 'a' }, ticket] })).toThrow(
      PolicyValidationError,
    );
    try {
      load({ detectors: [ticket, { name: 'x', patern: 'a' }, ticket] });
    } catch (error) {
      expect((error as PolicyValidationError).data.issues.map((i) => i.path)).toEqual([
        'detectors[1]',
        'detectors[2].name',
      ]);
    }
  });

  it('a custom detector feeds the redactor (recipe 17.5)', async () => {
    const registry = new Registry();
    registry.add(
      defineTool({ name: 'note', handler: () => ({ Ticket: 'Opened in SECOPS-4821 by on-call' }) }),
    );
    const policy = load({
      name: 'tickets',
      extends: 'standard',
      detectors: [
        {
          name: 'jira_ticket',
          entity: 'ticket_id',
          category: 'internal',
          pattern: '\\b(?:SECOPS|INFRA)-\\d{2,6}\\b',
          confidence: 0.9,
          hints: ['secops-', 'infra-'],
        },
      ],
      transform_options: { redact: { strategies: { ticket_id: 'hash' } } },
    });
    const result = await new Layer({ policy, registry, logger: silent }).callTool('note', {});
    expect(String((result.structured as { Ticket: string }).Ticket)).toMatch(
      /^Opened in ticket_id:[0-9a-f]{12} by on-call$/,
    );
    expect(result.meta[MetaKey.transforms]).toMatchObject({ hashed: { ticket_id: 1 } });
  });
});

describe('the vault', () => {
  it('is built from the vault section, shared by derive(), and saved by saveVault()', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-vault-'));
    const path = join(dir, 'vault.json');
    const policy = load({ extends: 'strict', vault: { key: 'k', path } });
    expect(policy.vault).toBeInstanceOf(TokenVault);
    expect(policy.derive({ audit: true }).vault).toBe(policy.vault);
    expect(policy.saveVault()).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(load('standard').saveVault()).toBeNull();
  });

  it('gives every caller its own namespace with scope principal', async () => {
    const { layer } = setup({ extends: 'strict', vault: { scope: 'principal', key: 'k' } }, null);
    const a = (await getAsset(layer, 'web-1', as('x', 'a'))).value;
    const b = (await getAsset(layer, 'web-1', as('x', 'b'))).value;
    expect(a.arn).not.toBe(b.arn);
  });
});
