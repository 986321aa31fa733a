/**
 * The Azure collector against a local ARM stand-in: hand-written responses shaped like real ARM
 * lists, pagination through nextLink, a 429 with Retry-After, a denied service, and the assets
 * and edges that come out.
 */
import { CloudgConfig } from '@cloudg/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { AzureCollector } from '../src/azure/index.js';
import { createCollectorEngine, SILENT_HOOKS } from '../src/index.js';
import {
  type ArmHandler,
  type ArmRoutes,
  FAKE_AZURE_CREDENTIAL,
  IDS,
  SUB,
  sampleArmRoutes,
  startArmHandler,
} from './support/arm-handler.js';

import { coverageEntry, runEngine } from './support/engine-run.js';

let handler: ArmHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

async function collect(routes: ArmRoutes, services: string[] | null = null) {
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

describe('AzureCollector', () => {
  it('collects the sample hub and links it as the bundled estate does', async () => {
    const { out } = await collect(sampleArmRoutes());
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const lines = new Set(
      (out.edges ?? []).map(
        (e) =>
          `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
      ),
    );
    for (const line of [
      'hub-vnet CONTAINS jump-subnet',
      'jump-subnet CONTAINS jump-vm',
      'jump-vm ATTACHED_TO jump-nsg',
      '0.0.0.0/0 SECURITY_GROUP_RULE jump-nsg',
      'AzureLoadBalancer SECURITY_GROUP_RULE jump-nsg',
      'jump-vm GRANTS_ACCESS archive',
      'orders-sql CONTAINS orders',
    ])
      expect(lines.has(line), line).toBe(true);
    const rdp = (out.edges ?? []).find(
      (e) => e.source_id === '0.0.0.0/0' && e.edge_type === 'SECURITY_GROUP_RULE',
    );
    expect(rdp).toMatchObject({ ports: [3389], protocol: 'TCP', cidr: '0.0.0.0/0', direction: 'ingress' });
    const vm = assets.find((a) => a.name === 'jump-vm');
    expect(vm).toMatchObject({
      asset_type: 'VIRTUAL_MACHINE',
      provider: 'AZURE',
      region: 'westeurope',
      account_id: SUB,
      is_internet_exposed: true,
    });
    expect(assets.find((a) => a.name === 'worker-vm')?.is_internet_exposed).toBe(false);
    expect(assets.find((a) => a.name === 'orders-sql')?.is_internet_exposed).toBe(true);
    expect(assets.some((a) => a.name === 'master')).toBe(false);
    // A user's role assignment at subscription scope: an Entra principal placeholder.
    const user = assets.find((a) => a.arn === 'entra:principal/aaaaaaaa-0000-0000-0000-000000000002');
    expect(user).toMatchObject({
      asset_type: 'IDENTITY_USER',
      metadata: { placeholder: true, discovered_via: 'entra-principal-reference' },
    });
    expect(lines.has(`${user?.name} GRANTS_ACCESS ${SUB}`)).toBe(true);
    expect(entry(out.coverage, 'azure_full')).toMatchObject({ status: 'SUCCESS' });
  });

  it("names each assignment's role, flags the privileged ones and keeps its condition (POLICY_ALLOWS_ACTION)", async () => {
    const routes = sampleArmRoutes();
    const path = `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments`;
    const base = routes[path] as { body: { value: unknown[] } };
    routes[path] = {
      body: {
        value: [
          ...base.body.value,
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments/ra-3`,
            name: 'ra-3',
            properties: {
              principalId: 'AAAAAAAA-0000-0000-0000-000000000003',
              principalType: 'Group',
              scope: `/subscriptions/${SUB}`,
              roleDefinitionId: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/8E3AF657-A8FF-443C-A75C-2FE8C4BCB635`,
              condition: "@Resource[Microsoft.Storage/storageAccounts:name] StringEquals 'archive'",
            },
          },
        ],
      },
    };
    const { out } = await collect(routes, ['identity', 'compute', 'storage']);
    const assets = out.assets ?? [];
    const grantFrom = (arn: string) =>
      (out.edges ?? []).find(
        (e) => e.edge_type === 'GRANTS_ACCESS' && e.source_id === assets.find((a) => a.arn === arn)?.id,
      );
    expect(grantFrom('entra:principal/aaaaaaaa-0000-0000-0000-000000000003')).toMatchObject({
      relationship: 'POLICY_ALLOWS_ACTION',
      properties: {
        role: 'Owner',
        privileged: true,
        principal_type: 'Group',
        condition: "@Resource[Microsoft.Storage/storageAccounts:name] StringEquals 'archive'",
      },
    });
    expect(grantFrom('entra:principal/aaaaaaaa-0000-0000-0000-000000000002')?.properties).toMatchObject({
      role: 'Reader',
      privileged: false,
    });
    const vm = assets.find((a) => a.name === 'jump-vm');
    const storageGrant = (out.edges ?? []).find(
      (e) =>
        e.edge_type === 'GRANTS_ACCESS' &&
        e.source_id === vm?.id &&
        e.properties?.assignment_id !== undefined,
    );
    expect(storageGrant?.properties).toMatchObject({
      role: 'Storage Blob Data Contributor',
      privileged: false,
    });
    expect(entry(out.coverage, 'azure_authorization')?.status).toBe('SUCCESS');
  });

  it('keeps the assignments unnamed when the role definitions may not be listed, PARTIAL', async () => {
    const routes = sampleArmRoutes();
    routes[`/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions`] = {
      status: 403,
      body: { error: { code: 'AuthorizationFailed', message: 'no roleDefinitions/read' } },
    };
    const { out } = await collect(routes, ['identity']);
    expect(entry(out.coverage, 'azure_authorization')).toMatchObject({ status: 'PARTIAL' });
    expect(entry(out.coverage, 'azure_authorization')?.error).toContain(
      'roleDefinitions: AuthorizationFailed',
    );
    const grant = (out.edges ?? []).find(
      (e) => e.edge_type === 'GRANTS_ACCESS' && e.properties?.assignment_id !== undefined,
    );
    expect(grant?.properties).toMatchObject({ privileged: false });
    expect(grant?.properties?.role).toBeUndefined();
  });

  it('runs a VM as its user-assigned identity, which reaches what the identity was granted', async () => {
    const routes = sampleArmRoutes();
    const vms = `/subscriptions/${SUB}/providers/Microsoft.Compute/virtualMachines`;
    const original = routes[vms];
    const identityId = `/subscriptions/${SUB}/resourceGroups/rg-hub/providers/Microsoft.ManagedIdentity/userAssignedIdentities/batch-id`;
    routes[vms] = (req, url) => {
      const reply = typeof original === 'function' ? original(req, url) : (original ?? {});
      const body = reply.body as { value: { name: string; identity?: unknown }[] };
      for (const vm of body.value)
        if (vm.name === 'worker-vm')
          vm.identity = {
            type: 'UserAssigned',
            userAssignedIdentities: {
              [identityId]: {
                principalId: 'BBBBBBBB-0000-0000-0000-000000000009',
                clientId: 'cccccccc-0000-0000-0000-000000000009',
              },
            },
          };
      return reply;
    };
    const assignments = `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments`;
    const base = routes[assignments] as { body: { value: unknown[] } };
    routes[assignments] = {
      body: {
        value: [
          ...base.body.value,
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments/ra-9`,
            name: 'ra-9',
            properties: {
              principalId: 'BBBBBBBB-0000-0000-0000-000000000009',
              principalType: 'ServicePrincipal',
              scope: `/subscriptions/${SUB}`,
              roleDefinitionId: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
            },
          },
        ],
      },
    };
    const { out } = await collect(routes, ['compute', 'identity']);
    const assets = out.assets ?? [];
    const worker = assets.find((a) => a.name === 'worker-vm');
    const identity = assets.find((a) => a.arn === 'entra:principal/bbbbbbbb-0000-0000-0000-000000000009');
    expect(worker?.metadata.user_assigned_identities).toEqual([identityId]);
    expect(
      (out.edges ?? []).find((e) => e.source_id === worker?.id && e.target_id === identity?.id),
    ).toMatchObject({
      edge_type: 'ASSUMES_ROLE',
      relationship: 'RUNS_ON',
      properties: { identity: identityId },
    });
    expect(
      (out.edges ?? []).some((e) => e.source_id === identity?.id && e.edge_type === 'GRANTS_ACCESS'),
    ).toBe(true);
  });

  it("lets a storage account's network rules in and references its customer-managed key's vault", async () => {
    const routes = sampleArmRoutes();
    const path = `/subscriptions/${SUB}/providers/Microsoft.Storage/storageAccounts`;
    const base = routes[path] as { body: { value: { properties: Record<string, unknown> }[] } };
    const subnet = `/subscriptions/${SUB}/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/hub-vnet/subnets/jump-subnet`;
    const account = base.body.value[0];
    if (account)
      account.properties = {
        ...account.properties,
        networkAcls: {
          defaultAction: 'Deny',
          bypass: 'AzureServices',
          ipRules: [{ value: '203.0.113.0/24', action: 'Allow' }],
          virtualNetworkRules: [{ id: subnet, action: 'Allow' }],
        },
        encryption: {
          keySource: 'Microsoft.Keyvault',
          keyvaultproperties: { keyname: 'archive-key', keyvaulturi: 'https://hub-kv.vault.azure.net/' },
        },
      };
    const { out } = await collect(routes, ['network', 'storage', 'identity']);
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const lines = new Map(
      (out.edges ?? []).map((e) => [
        `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
        e,
      ]),
    );
    expect(lines.get('jump-subnet GRANTS_ACCESS archive')?.properties).toMatchObject({
      network_rule: 'virtual_network',
    });
    expect(lines.get('archive REFERENCES hub-kv')).toMatchObject({
      relationship: 'ENCRYPTED_BY_KMS',
      properties: { key_name: 'archive-key' },
    });
    expect(assets.find((a) => a.name === 'archive')?.metadata).toMatchObject({
      ip_rules: ['203.0.113.0/24'],
      virtual_network_rules: 1,
      network_bypass: 'AzureServices',
    });
  });

  it('follows nextLink to the second page', async () => {
    const { out } = await collect(sampleArmRoutes(), ['compute']);
    expect((out.assets ?? []).filter((a) => a.asset_type === 'VIRTUAL_MACHINE').map((a) => a.name)).toEqual([
      'jump-vm',
      'worker-vm',
    ]);
    expect(handler?.requests.filter((r) => r.includes('virtualMachines'))).toHaveLength(2);
    expect(handler?.requests.some((r) => r.includes('skiptoken=page2'))).toBe(true);
  });

  it('waits out a 429 for its Retry-After and then collects', async () => {
    const routes = sampleArmRoutes();
    const path = `/subscriptions/${SUB}/providers/Microsoft.Storage/storageAccounts`;
    const ok = routes[path];
    let calls = 0;
    routes[path] = (req, url) => {
      calls += 1;
      if (calls === 1)
        return {
          status: 429,
          headers: { 'retry-after': '4' },
          body: { error: { code: 'TooManyRequests', message: 'The request is being throttled.' } },
        };
      return typeof ok === 'function' ? ok(req, url) : (ok ?? {});
    };
    const { out, sleeps, events } = await collect(routes, ['storage']);
    expect(calls).toBe(2);
    expect(sleeps).toEqual([4]);
    expect(events.filter((e) => e.kind === 'throttled')).toHaveLength(1);
    expect(events.find((e) => e.kind === 'throttled')).toMatchObject({
      scope: `azure/${SUB}`,
      service: 'storage',
    });
    expect((out.assets ?? []).some((a) => a.name === 'archive')).toBe(true);
    expect(entry(out.coverage, 'azure_storage')?.status).toBe('SUCCESS');
  });

  it('reports a denied service in coverage and collects the rest', async () => {
    const routes = sampleArmRoutes();
    routes[`/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments`] = {
      status: 403,
      body: {
        error: {
          code: 'AuthorizationFailed',
          message: `The client does not have authorization to perform action 'Microsoft.Authorization/roleAssignments/read' over scope '/subscriptions/${SUB}'.`,
        },
      },
    };
    const { out, errors, events } = await collect(routes);
    const denied = entry(out.coverage, 'azure_authorization');
    expect(denied).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(denied?.error).toMatch(/^AuthorizationFailed: /);
    expect(
      errors.some((e) =>
        e.startsWith(`azure azure_authorization (${SUB}) access denied: AuthorizationFailed`),
      ),
    ).toBe(true);
    expect(events.some((e) => e.kind === 'retry')).toBe(false);
    expect((out.assets ?? []).map((a) => a.name)).toEqual(
      expect.arrayContaining(['jump-vm', 'archive', 'hub-vnet', 'orders-sql']),
    );
    expect(entry(out.coverage, 'azure_full')).toMatchObject({ status: 'PARTIAL' });
  });

  it('skips a run without subscriptions, saying why', async () => {
    const engine = createCollectorEngine({
      collectors: [new AzureCollector({ clientSettings: { credential: FAKE_AZURE_CREDENTIAL } })],
    });
    const errors: string[] = [];
    const out = await engine.collect({
      config: CloudgConfig.parse({ providers: ['azure'] }),
      providers: ['azure'],
      regions: null,
      signal: new AbortController().signal,
      hooks: { ...SILENT_HOOKS, error: (_p, m) => errors.push(m) },
    });
    expect(entry(out.coverage, 'azure_full')).toMatchObject({
      status: 'SKIPPED',
      error: 'no subscriptions configured (azure.subscriptions)',
    });
    expect(errors).toEqual(['azure: no subscriptions configured (azure.subscriptions)']);
  });
});

void IDS;

describe('AzureCollector cancellation', () => {
  it('stops between pages when the signal aborts', async () => {
    const controller = new AbortController();
    const routes = sampleArmRoutes();
    const path = `/subscriptions/${SUB}/providers/Microsoft.Compute/virtualMachines`;
    const first = routes[path];
    routes[path] = (req, url) => {
      controller.abort(new Error('cancelled by the caller'));
      return typeof first === 'function' ? first(req, url) : (first ?? {});
    };
    handler = await startArmHandler(routes);
    const engine = createCollectorEngine({
      collectors: [
        new AzureCollector({
          clientSettings: { credential: FAKE_AZURE_CREDENTIAL, httpClient: handler.httpClient },
        }),
      ],
    });
    await expect(
      engine.mapInventory({
        config: CloudgConfig.parse({ providers: ['azure'], azure: { subscriptions: [SUB] } }),
        providers: ['azure'],
        regions: null,
        services: ['compute', 'storage'],
        taggingSweep: null,
        signal: controller.signal,
        hooks: SILENT_HOOKS,
      }),
    ).rejects.toThrow('cancelled by the caller');
    expect(handler.requests.some((r) => r.includes('skiptoken=page2'))).toBe(false);
    expect(handler.requests.some((r) => r.includes('storageAccounts'))).toBe(false);
  });
});
