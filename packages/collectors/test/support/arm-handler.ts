/**
 * A local stand-in for Azure Resource Manager: hand-written JSON shaped like real ARM list
 * responses (`value`, `nextLink`, the error envelope), served on 127.0.0.1. The ARM clients keep
 * their real endpoint (the bearer-token policy insists on https) and get an HttpClient that
 * sends every request to this server instead, so nothing leaves the machine.
 */
import type { TokenCredential } from '@azure/core-auth';
import { createDefaultHttpClient, type HttpClient } from '@azure/core-rest-pipeline';
import { type JsonReply, type JsonRoutes, startJsonServer } from './json-server.js';

export type ArmReply = JsonReply;
/** Replies by path (no query); a function may look at the request (the skip token) and count calls. */
export type ArmRoutes = JsonRoutes;

export interface ArmHandler {
  httpClient: HttpClient;
  /** Paths requested, in order, with their query. */
  requests: string[];
  close(): Promise<void>;
}

export async function startArmHandler(routes: ArmRoutes): Promise<ArmHandler> {
  const server = await startJsonServer(routes, {
    notFound: (path) => ({ error: { code: 'ResourceNotFound', message: `no fixture for ${path}` } }),
  });
  const inner = createDefaultHttpClient();
  const httpClient: HttpClient = {
    sendRequest(request) {
      const target = new URL(request.url);
      request.url = `http://127.0.0.1:${server.port}${target.pathname}${target.search}`;
      request.allowInsecureConnection = true;
      return inner.sendRequest(request);
    },
  };
  return { httpClient, requests: server.requests, close: server.close };
}

/** A credential that hands out a fixed token: no identity endpoint, no CLI, no metadata service. */
export const FAKE_AZURE_CREDENTIAL: TokenCredential = {
  getToken: async () => ({ token: 'test-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};

export const SUB = '00000000-aaaa-bbbb-cccc-000000000001';
const RG = `/subscriptions/${SUB}/resourceGroups/rg-hub`;
const NET = `${RG}/providers/Microsoft.Network`;
export const IDS = {
  vnet: `${NET}/virtualNetworks/hub-vnet`,
  subnet: `${NET}/virtualNetworks/hub-vnet/subnets/jump-subnet`,
  nsg: `${NET}/networkSecurityGroups/jump-nsg`,
  nic: `${NET}/networkInterfaces/jump-nic`,
  pip: `${NET}/publicIPAddresses/jump-pip`,
  vm: `${RG}/providers/Microsoft.Compute/virtualMachines/jump-vm`,
  worker: `${RG}/providers/Microsoft.Compute/virtualMachines/worker-vm`,
  storage: `${RG}/providers/Microsoft.Storage/storageAccounts/archive`,
  sql: `${RG}/providers/Microsoft.Sql/servers/orders-sql`,
  kv: `${RG}/providers/Microsoft.KeyVault/vaults/hub-kv`,
  opsKv: `${RG}/providers/Microsoft.KeyVault/vaults/ops-kv`,
  cosmos: `${RG}/providers/Microsoft.DocumentDB/databaseAccounts/orders-cosmos`,
  events: `${RG}/providers/Microsoft.DocumentDB/databaseAccounts/events-cosmos`,
};
const VM_PRINCIPAL = '11111111-2222-3333-4444-555555555555';
const TENANT = '99999999-0000-0000-0000-000000000000';
const list = (path: string) => `/subscriptions/${SUB}/providers/${path}`;

/**
 * The Azure part of the sample estate (hub-vnet, jump-nsg open on 3389, jump-vm, archive, hub-kv
 * with an access policy for jump-vm's identity) and a SQL server, a second vault on a second page
 * (RBAC, no network rules), and two Cosmos DB accounts: one open to every network, one behind IP
 * rules with key-based authentication off.
 */
export function sampleArmRoutes(): ArmRoutes {
  return {
    [list('Microsoft.Network/virtualNetworks')]: {
      body: {
        value: [
          {
            id: IDS.vnet,
            name: 'hub-vnet',
            location: 'westeurope',
            properties: {
              addressSpace: { addressPrefixes: ['10.10.0.0/16'] },
              subnets: [
                { id: IDS.subnet, name: 'jump-subnet', properties: { addressPrefix: '10.10.1.0/24' } },
              ],
            },
          },
        ],
      },
    },
    [list('Microsoft.Network/networkSecurityGroups')]: {
      body: {
        value: [
          {
            id: IDS.nsg,
            name: 'jump-nsg',
            location: 'westeurope',
            properties: {
              securityRules: [
                {
                  name: 'allow-rdp',
                  properties: {
                    direction: 'Inbound',
                    access: 'Allow',
                    protocol: 'Tcp',
                    priority: 100,
                    sourceAddressPrefix: '*',
                    destinationPortRange: '3389',
                    sourcePortRange: '*',
                    destinationAddressPrefix: '*',
                  },
                },
                {
                  name: 'allow-lb',
                  properties: {
                    direction: 'Inbound',
                    access: 'Allow',
                    protocol: '*',
                    priority: 200,
                    sourceAddressPrefix: 'AzureLoadBalancer',
                    destinationPortRange: '*',
                    sourcePortRange: '*',
                    destinationAddressPrefix: '*',
                  },
                },
              ],
            },
          },
        ],
      },
    },
    [list('Microsoft.Network/publicIPAddresses')]: {
      body: {
        value: [
          {
            id: IDS.pip,
            name: 'jump-pip',
            location: 'westeurope',
            properties: { ipAddress: '198.51.100.7', publicIPAllocationMethod: 'Static' },
          },
        ],
      },
    },
    [list('Microsoft.Network/networkInterfaces')]: {
      body: {
        value: [
          {
            id: IDS.nic,
            name: 'jump-nic',
            location: 'westeurope',
            properties: {
              networkSecurityGroup: { id: IDS.nsg },
              ipConfigurations: [
                {
                  id: `${IDS.nic}/ipConfigurations/ipconfig1`,
                  name: 'ipconfig1',
                  properties: { subnet: { id: IDS.subnet }, publicIPAddress: { id: IDS.pip } },
                },
              ],
            },
          },
        ],
      },
    },
    // Two pages: the collector must follow nextLink.
    [list('Microsoft.Compute/virtualMachines')]: (_req, url) =>
      url.searchParams.get('$skiptoken') === 'page2'
        ? {
            body: {
              value: [
                {
                  id: IDS.worker,
                  name: 'worker-vm',
                  location: 'westeurope',
                  properties: { hardwareProfile: { vmSize: 'Standard_B2s' } },
                },
              ],
            },
          }
        : {
            body: {
              value: [
                {
                  id: IDS.vm,
                  name: 'jump-vm',
                  location: 'westeurope',
                  identity: {
                    type: 'SystemAssigned',
                    principalId: VM_PRINCIPAL,
                    tenantId: '99999999-0000-0000-0000-000000000000',
                  },
                  properties: {
                    hardwareProfile: { vmSize: 'Standard_B2s' },
                    networkProfile: { networkInterfaces: [{ id: IDS.nic }] },
                  },
                },
              ],
              nextLink: `https://management.azure.com${list('Microsoft.Compute/virtualMachines')}?api-version=2024-07-01&$skiptoken=page2`,
            },
          },
    [list('Microsoft.Storage/storageAccounts')]: {
      body: {
        value: [
          {
            id: IDS.storage,
            name: 'archive',
            location: 'westeurope',
            kind: 'StorageV2',
            sku: { name: 'Standard_LRS' },
            properties: {
              allowBlobPublicAccess: false,
              publicNetworkAccess: 'Enabled',
              networkAcls: { defaultAction: 'Allow' },
              primaryEndpoints: { blob: 'https://archive.blob.core.windows.net/' },
            },
          },
        ],
      },
    },
    [list('Microsoft.Sql/servers')]: {
      body: {
        value: [
          {
            id: IDS.sql,
            name: 'orders-sql',
            location: 'westeurope',
            properties: {
              fullyQualifiedDomainName: 'orders-sql.database.windows.net',
              publicNetworkAccess: 'Enabled',
            },
          },
        ],
      },
    },
    [`${IDS.sql}/firewallRules`]: {
      body: {
        value: [
          {
            id: `${IDS.sql}/firewallRules/all`,
            name: 'all',
            properties: { startIpAddress: '0.0.0.0', endIpAddress: '255.255.255.255' },
          },
        ],
      },
    },
    [`${IDS.sql}/databases`]: {
      body: {
        value: [
          { id: `${IDS.sql}/databases/master`, name: 'master', location: 'westeurope', properties: {} },
          {
            id: `${IDS.sql}/databases/orders`,
            name: 'orders',
            location: 'westeurope',
            sku: { name: 'S0' },
            properties: { status: 'Online' },
          },
        ],
      },
    },
    // The roles the assignments name (built-in role ids), as the definitions list returns them.
    [list('Microsoft.Authorization/roleDefinitions')]: {
      body: {
        value: [
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/ba92f5b4-2d11-453d-a403-e96b0029c9fe`,
            name: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
            properties: { roleName: 'Storage Blob Data Contributor', type: 'BuiltInRole' },
          },
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
            name: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
            properties: { roleName: 'Reader', type: 'BuiltInRole' },
          },
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/8e3af657-a8ff-443c-a75c-2fe8c4bcb635`,
            name: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
            properties: { roleName: 'Owner', type: 'BuiltInRole' },
          },
        ],
      },
    },
    [list('Microsoft.Authorization/roleAssignments')]: {
      body: {
        value: [
          {
            id: `${IDS.storage}/providers/Microsoft.Authorization/roleAssignments/ra-1`,
            name: 'ra-1',
            properties: {
              principalId: VM_PRINCIPAL,
              principalType: 'ServicePrincipal',
              scope: IDS.storage,
              roleDefinitionId: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/ba92f5b4-2d11-453d-a403-e96b0029c9fe`,
            },
          },
          {
            id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleAssignments/ra-2`,
            name: 'ra-2',
            properties: {
              principalId: 'AAAAAAAA-0000-0000-0000-000000000002',
              principalType: 'User',
              scope: `/subscriptions/${SUB}`,
              roleDefinitionId: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
            },
          },
        ],
      },
    },
    // Two pages of vaults: the collector must follow nextLink.
    [list('Microsoft.KeyVault/vaults')]: (_req, url) =>
      url.searchParams.get('$skiptoken') === 'kv2'
        ? {
            body: {
              value: [
                {
                  id: IDS.opsKv,
                  name: 'ops-kv',
                  type: 'Microsoft.KeyVault/vaults',
                  location: 'westeurope',
                  properties: {
                    tenantId: TENANT,
                    sku: { family: 'A', name: 'premium' },
                    accessPolicies: [
                      {
                        tenantId: TENANT,
                        objectId: 'bbbbbbbb-0000-0000-0000-000000000003',
                        permissions: { secrets: ['get'] },
                      },
                    ],
                    vaultUri: 'https://ops-kv.vault.azure.net/',
                    enableSoftDelete: true,
                    softDeleteRetentionInDays: 90,
                    enablePurgeProtection: true,
                    enableRbacAuthorization: true,
                    publicNetworkAccess: 'Enabled',
                  },
                },
              ],
            },
          }
        : {
            body: {
              value: [
                {
                  id: IDS.kv,
                  name: 'hub-kv',
                  type: 'Microsoft.KeyVault/vaults',
                  location: 'westeurope',
                  tags: { owner: 'it-ops' },
                  properties: {
                    tenantId: TENANT,
                    sku: { family: 'A', name: 'standard' },
                    accessPolicies: [
                      {
                        tenantId: TENANT,
                        objectId: VM_PRINCIPAL,
                        permissions: { keys: [], secrets: ['get', 'list'], certificates: [] },
                      },
                    ],
                    vaultUri: 'https://hub-kv.vault.azure.net/',
                    enableSoftDelete: true,
                    softDeleteRetentionInDays: 7,
                    enableRbacAuthorization: false,
                    publicNetworkAccess: 'Enabled',
                    networkAcls: {
                      bypass: 'AzureServices',
                      defaultAction: 'Deny',
                      ipRules: [{ value: '198.51.100.0/24' }],
                      virtualNetworkRules: [{ id: IDS.subnet }],
                    },
                  },
                },
              ],
              nextLink: `https://management.azure.com${list('Microsoft.KeyVault/vaults')}?api-version=2025-05-01&$skiptoken=kv2`,
            },
          },
    [list('Microsoft.DocumentDB/databaseAccounts')]: {
      body: {
        value: [
          {
            id: IDS.cosmos,
            name: 'orders-cosmos',
            type: 'Microsoft.DocumentDB/databaseAccounts',
            location: 'westeurope',
            kind: 'GlobalDocumentDB',
            properties: {
              documentEndpoint: 'https://orders-cosmos.documents.azure.com:443/',
              publicNetworkAccess: 'Enabled',
              ipRules: [],
              isVirtualNetworkFilterEnabled: false,
              disableLocalAuth: false,
              minimalTlsVersion: 'Tls12',
              keyVaultKeyUri: 'https://hub-kv.vault.azure.net/keys/cosmos-cmk',
              backupPolicy: { type: 'Periodic' },
              consistencyPolicy: { defaultConsistencyLevel: 'Session' },
              locations: [{ locationName: 'West Europe', failoverPriority: 0 }],
              databaseAccountOfferType: 'Standard',
            },
          },
          {
            id: IDS.events,
            name: 'events-cosmos',
            type: 'Microsoft.DocumentDB/databaseAccounts',
            location: 'westeurope',
            kind: 'MongoDB',
            properties: {
              documentEndpoint: 'https://events-cosmos.documents.azure.com:443/',
              publicNetworkAccess: 'Enabled',
              ipRules: [{ ipAddressOrRange: '0.0.0.0' }, { ipAddressOrRange: '203.0.113.0/24' }],
              isVirtualNetworkFilterEnabled: true,
              virtualNetworkRules: [{ id: IDS.subnet, ignoreMissingVNetServiceEndpoint: false }],
              disableLocalAuth: true,
              capabilities: [{ name: 'EnableMongo' }],
              backupPolicy: { type: 'Continuous' },
              databaseAccountOfferType: 'Standard',
            },
          },
        ],
      },
    },
  };
}
