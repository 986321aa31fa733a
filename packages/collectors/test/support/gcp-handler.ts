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
const WORKER_SA = 'worker@proj-analytics.iam.gserviceaccount.com';

/** The Google Cloud part of the sample estate (worker-1 and its network), plus a second page of instances. */
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
  };
}
