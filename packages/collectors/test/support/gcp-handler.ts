/**
 * A local stand-in for the Google Cloud REST APIs the collector calls: hand-written JSON shaped
 * like real Compute Engine and Resource Manager responses (`items`, `nextPageToken`, aggregated
 * `items` keyed by scope, the error envelope), on 127.0.0.1. The clients are pointed at it with
 * `apiEndpoint`, `port` and `protocol: 'http'`, and get an OAuth2 client holding a fixed token, so
 * no credential chain or metadata server is ever consulted.
 */
import { OAuth2Client } from 'google-auth-library';
import type { GcpClientSettings } from '../../src/gcp/index.js';
import { type JsonReply, type JsonRoutes, startJsonServer } from './json-server.js';

export type GcpReply = JsonReply;
export type GcpRoutes = JsonRoutes;

export interface GcpHandler {
  settings: GcpClientSettings;
  /** `METHOD path?query`, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startGcpHandler(routes: GcpRoutes): Promise<GcpHandler> {
  const server = await startJsonServer(routes, {
    notFound: (path) => ({ error: { code: 404, message: `no fixture for ${path}`, status: 'NOT_FOUND' } }),
    label: (req) => `${req.method} `,
  });
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'test-token', expiry_date: Date.now() + 3_600_000 });
  return {
    settings: { authClient, apiEndpoint: '127.0.0.1', port: server.port, protocol: 'http' },
    requests: server.requests,
    close: server.close,
  };
}

export const PROJECT = 'proj-analytics';
const API = `https://www.googleapis.com/compute/v1/projects/${PROJECT}`;
const C = `/compute/v1/projects/${PROJECT}`;
export const WORKER_SA = 'worker@proj-analytics.iam.gserviceaccount.com';
export const DEPLOY_SA = 'deploy@proj-analytics.iam.gserviceaccount.com';

/**
 * The Google Cloud part of the sample estate (worker-1 and its network, the public raw-uploads
 * bucket), plus a second page of instances, a private bucket whose policy names allUsers but whose
 * public access prevention is enforced, and two Cloud SQL instances: one open to 0.0.0.0/0 over
 * a public IP, one private read replica.
 */
export function sampleGcpRoutes(): GcpRoutes {
  return {
    [`${C}/global/networks`]: {
      body: {
        kind: 'compute#networkList',
        items: [
          {
            name: 'analytics-vpc',
            selfLink: `${API}/global/networks/analytics-vpc`,
            autoCreateSubnetworks: false,
          },
        ],
      },
    },
    [`${C}/aggregated/subnetworks`]: {
      body: {
        kind: 'compute#subnetworkAggregatedList',
        items: {
          'regions/europe-west1': {
            subnetworks: [
              {
                name: 'analytics-eu',
                selfLink: `${API}/regions/europe-west1/subnetworks/analytics-eu`,
                region: `${API}/regions/europe-west1`,
                network: `${API}/global/networks/analytics-vpc`,
                ipCidrRange: '10.20.0.0/24',
              },
            ],
          },
          'regions/us-central1': {
            warning: { code: 'NO_RESULTS_ON_PAGE', message: 'There are no results for scope.' },
          },
        },
      },
    },
    [`${C}/aggregated/instances`]: (_req, url) =>
      url.searchParams.get('pageToken') === 'p2'
        ? {
            body: {
              items: {
                'zones/europe-west1-c': {
                  instances: [
                    {
                      name: 'batch-1',
                      selfLink: `${API}/zones/europe-west1-c/instances/batch-1`,
                      zone: `${API}/zones/europe-west1-c`,
                      networkInterfaces: [
                        {
                          network: `${API}/global/networks/analytics-vpc`,
                          subnetwork: `${API}/regions/europe-west1/subnetworks/analytics-eu`,
                        },
                      ],
                    },
                  ],
                },
              },
            },
          }
        : {
            body: {
              items: {
                'zones/europe-west1-b': {
                  instances: [
                    {
                      name: 'worker-1',
                      selfLink: `${API}/zones/europe-west1-b/instances/worker-1`,
                      zone: `${API}/zones/europe-west1-b`,
                      machineType: `${API}/zones/europe-west1-b/machineTypes/e2-standard-4`,
                      status: 'RUNNING',
                      tags: { items: ['ssh'] },
                      networkInterfaces: [
                        {
                          network: `${API}/global/networks/analytics-vpc`,
                          subnetwork: `${API}/regions/europe-west1/subnetworks/analytics-eu`,
                          networkIP: '10.20.0.5',
                          accessConfigs: [{ name: 'External NAT', natIP: '203.0.113.40' }],
                        },
                      ],
                      serviceAccounts: [
                        { email: WORKER_SA, scopes: ['https://www.googleapis.com/auth/cloud-platform'] },
                      ],
                    },
                  ],
                },
              },
              nextPageToken: 'p2',
            },
          },
    [`${C}/global/firewalls`]: {
      body: {
        items: [
          {
            name: 'allow-ssh',
            selfLink: `${API}/global/firewalls/allow-ssh`,
            network: `${API}/global/networks/analytics-vpc`,
            direction: 'INGRESS',
            priority: 1000,
            sourceRanges: ['0.0.0.0/0'],
            targetTags: ['ssh'],
            allowed: [{ IPProtocol: 'tcp', ports: ['22'] }],
          },
          {
            name: 'allow-internal',
            selfLink: `${API}/global/firewalls/allow-internal`,
            network: `${API}/global/networks/analytics-vpc`,
            direction: 'INGRESS',
            sourceRanges: ['10.20.0.0/16'],
            allowed: [{ IPProtocol: 'all' }],
          },
        ],
      },
    },
    // IAM API: the project's service accounts (two pages), then each one's own policy.
    [`/v1/projects/${PROJECT}/serviceAccounts`]: (_req, url) =>
      url.searchParams.get('pageToken') === 'sa2'
        ? {
            body: {
              accounts: [
                {
                  name: `projects/${PROJECT}/serviceAccounts/${DEPLOY_SA}`,
                  projectId: PROJECT,
                  uniqueId: '104000000000000000002',
                  email: DEPLOY_SA,
                  displayName: 'deployer',
                },
              ],
            },
          }
        : {
            body: {
              accounts: [
                {
                  name: `projects/${PROJECT}/serviceAccounts/${WORKER_SA}`,
                  projectId: PROJECT,
                  uniqueId: '104000000000000000001',
                  email: WORKER_SA,
                  displayName: 'worker',
                },
              ],
              nextPageToken: 'sa2',
            },
          },
    [`/v1/projects/${PROJECT}/serviceAccounts/${WORKER_SA}:getIamPolicy`]: {
      body: { version: 1, etag: 'BwSa1=' },
    },
    // The CI deployer may mint tokens for the deploy account and act as it.
    [`/v1/projects/${PROJECT}/serviceAccounts/${DEPLOY_SA}:getIamPolicy`]: {
      body: {
        version: 1,
        etag: 'BwSa2=',
        bindings: [
          { role: 'roles/iam.serviceAccountTokenCreator', members: ['user:ci@example.com'] },
          { role: 'roles/iam.serviceAccountUser', members: ['user:ci@example.com'] },
          { role: 'roles/iam.serviceAccountKeyAdmin', members: ['group:analysts@example.com'] },
        ],
      },
    },
    [`/v3/projects/${PROJECT}:getIamPolicy`]: {
      body: {
        version: 1,
        etag: 'BwXyz=',
        bindings: [
          { role: 'roles/storage.objectViewer', members: [`serviceAccount:${WORKER_SA}`] },
          { role: 'roles/viewer', members: ['user:alice@example.com', 'group:analysts@example.com'] },
        ],
      },
    },
    // Cloud Storage JSON API: two pages of buckets, then each bucket's IAM policy.
    '/storage/v1/b': (_req, url) =>
      url.searchParams.get('pageToken') === 'b2'
        ? {
            body: {
              kind: 'storage#buckets',
              items: [
                {
                  kind: 'storage#bucket',
                  id: 'analytics-exports',
                  name: 'analytics-exports',
                  projectNumber: '123456789012',
                  location: 'EU',
                  locationType: 'multi-region',
                  storageClass: 'STANDARD',
                  iamConfiguration: {
                    uniformBucketLevelAccess: { enabled: true, lockedTime: '2026-04-01T00:00:00Z' },
                    publicAccessPrevention: 'enforced',
                  },
                  encryption: {
                    defaultKmsKeyName: `projects/${PROJECT}/locations/eu/keyRings/data/cryptoKeys/exports`,
                  },
                  logging: { logBucket: 'raw-uploads', logObjectPrefix: 'access/' },
                  versioning: { enabled: true },
                },
              ],
            },
          }
        : url.searchParams.get('project') === PROJECT
          ? {
              body: {
                kind: 'storage#buckets',
                items: [
                  {
                    kind: 'storage#bucket',
                    id: 'raw-uploads',
                    name: 'raw-uploads',
                    projectNumber: '123456789012',
                    location: 'EUROPE-WEST1',
                    locationType: 'region',
                    storageClass: 'STANDARD',
                    labels: { team: 'analytics' },
                    iamConfiguration: {
                      uniformBucketLevelAccess: { enabled: false },
                      publicAccessPrevention: 'inherited',
                    },
                  },
                ],
                nextPageToken: 'b2',
              },
            }
          : { status: 400, body: { error: { code: 400, message: 'Required parameter: project' } } },
    '/storage/v1/b/raw-uploads/iam': {
      body: {
        kind: 'storage#policy',
        resourceId: 'projects/_/buckets/raw-uploads',
        version: 1,
        etag: 'CAE=',
        bindings: [
          { role: 'roles/storage.objectViewer', members: ['allUsers'] },
          { role: 'roles/storage.objectAdmin', members: [`serviceAccount:${WORKER_SA}`] },
        ],
      },
    },
    '/storage/v1/b/analytics-exports/iam': {
      body: {
        kind: 'storage#policy',
        resourceId: 'projects/_/buckets/analytics-exports',
        version: 1,
        etag: 'CAE=',
        bindings: [{ role: 'roles/storage.objectViewer', members: ['allUsers', 'user:alice@example.com'] }],
      },
    },
    // SQL Admin API v1: two pages of instances.
    [`/v1/projects/${PROJECT}/instances`]: (_req, url) =>
      url.searchParams.get('pageToken') === 's2'
        ? {
            body: {
              items: [
                {
                  kind: 'sql#instance',
                  name: 'reporting-replica',
                  project: PROJECT,
                  region: 'europe-west1',
                  databaseVersion: 'POSTGRES_15',
                  state: 'RUNNABLE',
                  instanceType: 'READ_REPLICA_INSTANCE',
                  masterInstanceName: `${PROJECT}:analytics-sql`,
                  connectionName: `${PROJECT}:europe-west1:reporting-replica`,
                  ipAddresses: [{ type: 'PRIVATE', ipAddress: '10.30.0.7' }],
                  diskEncryptionConfiguration: {
                    kmsKeyName: `projects/${PROJECT}/locations/europe-west1/keyRings/data/cryptoKeys/sql`,
                  },
                  settings: {
                    tier: 'db-custom-2-7680',
                    availabilityType: 'ZONAL',
                    ipConfiguration: {
                      ipv4Enabled: false,
                      privateNetwork: `projects/${PROJECT}/global/networks/analytics-vpc`,
                      sslMode: 'ENCRYPTED_ONLY',
                      requireSsl: true,
                    },
                    backupConfiguration: { enabled: false },
                  },
                },
              ],
            },
          }
        : {
            body: {
              items: [
                {
                  kind: 'sql#instance',
                  name: 'analytics-sql',
                  project: PROJECT,
                  region: 'europe-west1',
                  gceZone: 'europe-west1-b',
                  databaseVersion: 'POSTGRES_15',
                  state: 'RUNNABLE',
                  instanceType: 'CLOUD_SQL_INSTANCE',
                  connectionName: `${PROJECT}:europe-west1:analytics-sql`,
                  ipAddresses: [{ type: 'PRIMARY', ipAddress: '203.0.113.60' }],
                  settings: {
                    tier: 'db-custom-2-7680',
                    availabilityType: 'REGIONAL',
                    userLabels: { env: 'prod' },
                    ipConfiguration: {
                      ipv4Enabled: true,
                      requireSsl: false,
                      sslMode: 'ALLOW_UNENCRYPTED_AND_ENCRYPTED',
                      authorizedNetworks: [
                        { kind: 'sql#aclEntry', name: 'anywhere', value: '0.0.0.0/0' },
                        { kind: 'sql#aclEntry', name: 'office', value: '198.51.100.0/24' },
                      ],
                    },
                    backupConfiguration: { enabled: true, pointInTimeRecoveryEnabled: true },
                  },
                },
              ],
              nextPageToken: 's2',
            },
          },
  };
}
