import { afterEach, describe, expect, it } from 'vitest';
import { AzureCollector } from '../src/azure/index.js';
import {
  type ArmHandler,
  type ArmRoutes,
  FAKE_AZURE_CREDENTIAL,
  IDS,
  SUB,
  sampleArmRoutes,
  startArmHandler,
} from './support/arm-handler.js';
import { coverageEntry, edgeLines, runEngine } from './support/engine-run.js';
import { once } from './support/json-server.js';

let handler: ArmHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

async function collect(routes: ArmRoutes, services: string[] | null) {
  handler = await startArmHandler(routes);
  return runEngine(
    new AzureCollector({
      clientSettings: { credential: FAKE_AZURE_CREDENTIAL, httpClient: handler.httpClient },
    }),
    'azure',
    { azure: { subscriptions: [SUB] } },
    services,
  );
}

const entry = coverageEntry;

const VAULTS = `/subscriptions/${SUB}/providers/Microsoft.KeyVault/vaults`;
const COSMOS = `/subscriptions/${SUB}/providers/Microsoft.DocumentDB/databaseAccounts`;

describe('AzureCollector: Key Vault', () => {
  it('collects both pages of vaults with their protection, permission model and network rules', async () => {
    const { out } = await collect(sampleArmRoutes(), ['azure_keyvault', 'network']);
    const vaults = (out.assets ?? []).filter((a) => a.asset_type === 'KEY_VAULT');
    expect(vaults.map((v) => v.name)).toEqual(['hub-kv', 'ops-kv']);
    expect(vaults[0]).toMatchObject({
      arn: IDS.kv,
      region: 'westeurope',
      account_id: SUB,
      tags: { owner: 'it-ops' },
      is_internet_exposed: false,
      metadata: {
        soft_delete: true,
        purge_protection: false,
        rbac_authorization: false,
        permission_model: 'access_policies',
        access_policies: 1,
        network_default_action: 'Deny',
        ip_rules: ['198.51.100.0/24'],
        virtual_network_rules: 1,
      },
    });
    // No network rule set: every network reaches the vault.
    expect(vaults[1]).toMatchObject({
      is_internet_exposed: true,
      metadata: { purge_protection: true, rbac_authorization: true, network_default_action: 'Allow' },
    });
    const exposure = (out.edges ?? []).find(
      (e) => e.target_id === vaults[1]?.id && e.edge_type === 'INTERNET_EXPOSED',
    );
    expect(exposure).toMatchObject({ source_id: '0.0.0.0/0', relationship: 'INTERNET_REACHABLE' });
    expect(edgeLines(out).has('jump-subnet GRANTS_ACCESS hub-kv')).toBe(true);
    expect(handler?.requests.some((r) => r.includes('skiptoken=kv2'))).toBe(true);
    expect(entry(out.coverage, 'azure_keyvault')).toMatchObject({ status: 'SUCCESS', asset_count: 2 });
  });

  it("links an access policy to the VM whose identity it names, as the sample estate's jump-vm -> hub-kv", async () => {
    const { out } = await collect(sampleArmRoutes(), ['compute', 'identity']);
    const lines = edgeLines(out);
    expect(lines.has('jump-vm GRANTS_ACCESS hub-kv')).toBe(true);
    const grant = (out.edges ?? []).find(
      (e) =>
        e.edge_type === 'GRANTS_ACCESS' &&
        out.assets?.find((a) => a.id === e.target_id)?.name === 'hub-kv' &&
        out.assets?.find((a) => a.id === e.source_id)?.name === 'jump-vm',
    );
    expect(grant).toMatchObject({
      relationship: 'POLICY_ALLOWS_ACTION',
      properties: { via: 'access_policy', secrets: ['get', 'list'] },
    });
    // ops-kv uses Azure RBAC: its leftover access policy grants nothing.
    expect(
      (out.assets ?? []).some((a) => a.arn === 'entra:principal/bbbbbbbb-0000-0000-0000-000000000003'),
    ).toBe(false);
  });

  it('waits out a 429 on the vault listing and then collects', async () => {
    const routes = sampleArmRoutes();
    const counter = { calls: 0 };
    routes[VAULTS] = once(
      {
        status: 429,
        headers: { 'retry-after': '5' },
        body: { error: { code: 'TooManyRequests', message: 'The request is being throttled.' } },
      },
      routes[VAULTS],
      counter,
    );
    const { out, sleeps, events } = await collect(routes, ['azure_keyvault']);
    expect(counter.calls).toBe(3);
    expect(sleeps[0]).toBe(5);
    expect(events.find((e) => e.kind === 'throttled')).toMatchObject({
      scope: `azure/${SUB}`,
      service: 'keyvault',
    });
    expect((out.assets ?? []).filter((a) => a.asset_type === 'KEY_VAULT')).toHaveLength(2);
    expect(entry(out.coverage, 'azure_keyvault')?.status).toBe('SUCCESS');
  });
});

describe('AzureCollector: Cosmos DB', () => {
  it('collects accounts with their network exposure, key-based authentication and key', async () => {
    const { out } = await collect(sampleArmRoutes(), ['azure_cosmosdb', 'azure_keyvault', 'network']);
    const orders = (out.assets ?? []).find((a) => a.name === 'orders-cosmos');
    expect(orders).toMatchObject({
      arn: IDS.cosmos,
      asset_type: 'COSMOS_DB',
      region: 'westeurope',
      is_internet_exposed: true,
      metadata: {
        kind: 'GlobalDocumentDB',
        public_network_access: 'Enabled',
        ip_rules: [],
        virtual_network_filter: false,
        key_based_auth: true,
        minimal_tls_version: 'Tls12',
        backup_policy: 'Periodic',
        customer_managed_key: true,
      },
    });
    const exposure = (out.edges ?? []).find(
      (e) => e.target_id === orders?.id && e.edge_type === 'INTERNET_EXPOSED',
    );
    expect(exposure).toMatchObject({ source_id: '0.0.0.0/0', ports: [443], protocol: 'TCP' });
    // 0.0.0.0 admits Azure datacentres, not the internet; the other rule is one range.
    expect((out.assets ?? []).find((a) => a.name === 'events-cosmos')).toMatchObject({
      is_internet_exposed: false,
      metadata: {
        ip_rules: ['0.0.0.0', '203.0.113.0/24'],
        virtual_network_filter: true,
        key_based_auth: false,
        capabilities: ['EnableMongo'],
        backup_policy: 'Continuous',
      },
    });
    const lines = edgeLines(out);
    expect(lines.has('orders-cosmos REFERENCES hub-kv')).toBe(true);
    expect(lines.has('jump-subnet GRANTS_ACCESS events-cosmos')).toBe(true);
    expect(entry(out.coverage, 'azure_cosmosdb')).toMatchObject({ status: 'SUCCESS', asset_count: 2 });
  });

  it('reports a denied Cosmos DB listing in coverage and collects the rest', async () => {
    const routes = sampleArmRoutes();
    routes[COSMOS] = {
      status: 403,
      body: {
        error: {
          code: 'AuthorizationFailed',
          message: `The client does not have authorization to perform action 'Microsoft.DocumentDB/databaseAccounts/read' over scope '/subscriptions/${SUB}'.`,
        },
      },
    };
    const { out, errors, events } = await collect(routes, ['data', 'identity']);
    expect(entry(out.coverage, 'azure_cosmosdb')).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(entry(out.coverage, 'azure_cosmosdb')?.error).toMatch(/^AuthorizationFailed: /);
    expect(
      errors.some((e) => e.startsWith(`azure azure_cosmosdb (${SUB}) access denied: AuthorizationFailed`)),
    ).toBe(true);
    expect(events.some((e) => e.kind === 'retry')).toBe(false);
    expect((out.assets ?? []).filter((a) => a.asset_type === 'KEY_VAULT')).toHaveLength(2);
    expect(entry(out.coverage, 'azure_full')).toMatchObject({ status: 'PARTIAL' });
  });
});
