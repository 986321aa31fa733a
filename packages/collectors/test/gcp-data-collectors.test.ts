/**
 * The Cloud Storage and Cloud SQL tasks against the local Google REST stand-in: buckets with their
 * IAM policies (public access, uniform access, CMEK), Cloud SQL instances (public IP with
 * authorized networks, SSL mode, backups), paging, a 429, a denied per-bucket policy and a
 * denied listing, and the edges the linker makes from them.
 */
import { CloudgConfig } from '@cloudg/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { GcpCollector } from '../src/gcp/index.js';
import { STORAGE_ENDPOINT, storageBase } from '../src/gcp/storage-api.js';
import { createCollectorEngine, SILENT_HOOKS } from '../src/index.js';
import { coverageEntry, edgeLines, runEngine } from './support/engine-run.js';
import {
  type GcpHandler,
  type GcpRoutes,
  PROJECT,
  sampleGcpRoutes,
  startGcpHandler,
} from './support/gcp-handler.js';
import { once } from './support/json-server.js';

let handler: GcpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

async function collect(routes: GcpRoutes, services: string[] | null) {
  handler = await startGcpHandler(routes);
  return runEngine(
    new GcpCollector({ clientSettings: handler.settings }),
    'gcp',
    { gcp: { projects: [PROJECT] } },
    services,
  );
}

const entry = coverageEntry;

describe('GcpCollector: Cloud Storage', () => {
  it('collects every page of buckets with their access settings, and exposes the public one', async () => {
    const { out } = await collect(sampleGcpRoutes(), ['storage']);
    const buckets = (out.assets ?? []).filter((a) => a.asset_type === 'GCS_BUCKET');
    expect(buckets.map((b) => b.name)).toEqual(['raw-uploads', 'analytics-exports']);
    const raw = buckets[0];
    expect(raw).toMatchObject({
      arn: '//storage.googleapis.com/projects/_/buckets/raw-uploads',
      provider: 'GCP',
      region: 'europe-west1',
      account_id: PROJECT,
      tags: { team: 'analytics' },
      is_internet_exposed: true,
      metadata: {
        uniform_bucket_level_access: false,
        public_access_prevention: 'inherited',
        public_members: ['allUsers'],
        encryption: 'GOOGLE_MANAGED',
      },
    });
    const exposure = (out.edges ?? []).find(
      (e) => e.target_id === raw?.id && e.edge_type === 'INTERNET_EXPOSED',
    );
    expect(exposure).toMatchObject({
      source_id: '0.0.0.0/0',
      relationship: 'INTERNET_REACHABLE',
      cidr: '0.0.0.0/0',
    });
    // allUsers in the policy, but public access prevention is enforced: Google refuses such access.
    expect(buckets[1]).toMatchObject({
      region: 'eu',
      is_internet_exposed: false,
      metadata: {
        uniform_bucket_level_access: true,
        public_access_prevention: 'enforced',
        encryption: 'CMEK',
        default_kms_key: `projects/${PROJECT}/locations/eu/keyRings/data/cryptoKeys/exports`,
        versioning: true,
      },
    });
    // Public members make no principal; the others are granted access from their placeholder.
    expect((out.assets ?? []).some((a) => a.arn === 'gcp-principal:allUsers')).toBe(false);
    const lines = edgeLines(out);
    expect(lines.has('worker@proj-analytics.iam.gserviceaccount.com GRANTS_ACCESS raw-uploads')).toBe(true);
    expect(lines.has('alice@example.com GRANTS_ACCESS analytics-exports')).toBe(true);
    expect(lines.has('analytics-exports LOGS_TO raw-uploads')).toBe(true);
    // The key was not collected: the reference is reported, not dropped.
    expect(out.unresolved_references).toContainEqual(
      expect.objectContaining({
        source_name: 'analytics-exports',
        target: `//cloudkms.googleapis.com/projects/${PROJECT}/locations/eu/keyRings/data/cryptoKeys/exports`,
      }),
    );
    expect(handler?.requests.filter((r) => r.startsWith('GET /storage/v1/b?'))).toHaveLength(2);
    expect(entry(out.coverage, 'gcp_storage')).toMatchObject({ status: 'SUCCESS', asset_count: 4 });
  });

  it('merges the grants of the project policy and a bucket policy on one principal', async () => {
    const { out } = await collect(sampleGcpRoutes(), ['identity', 'storage']);
    // The collected service account carries both grants; no placeholder stands for it.
    const worker = (out.assets ?? []).filter((a) =>
      a.arn?.endsWith('/serviceAccounts/worker@proj-analytics.iam.gserviceaccount.com'),
    );
    expect(worker).toHaveLength(1);
    expect((out.assets ?? []).filter((a) => a.arn?.startsWith('gcp-principal:serviceAccount:'))).toEqual([]);
    expect((out.assets ?? []).filter((a) => a.arn === 'gcp-principal:user:alice@example.com')).toHaveLength(
      1,
    );
    const lines = edgeLines(out);
    expect(lines.has(`worker@proj-analytics.iam.gserviceaccount.com GRANTS_ACCESS ${PROJECT}`)).toBe(true);
    expect(lines.has('worker@proj-analytics.iam.gserviceaccount.com GRANTS_ACCESS raw-uploads')).toBe(true);
  });

  it('keeps a bucket whose policy it may not read, and says so in coverage', async () => {
    const routes = sampleGcpRoutes();
    routes['/storage/v1/b/raw-uploads/iam'] = {
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            'cloudg@proj-analytics.iam.gserviceaccount.com does not have storage.buckets.getIamPolicy access',
          errors: [{ reason: 'forbidden', domain: 'global' }],
        },
      },
    };
    const { out, events } = await collect(routes, ['gcp_storage']);
    const raw = (out.assets ?? []).find((a) => a.name === 'raw-uploads');
    expect(raw).toMatchObject({ is_internet_exposed: false, metadata: { iam_policy_read: false } });
    expect(entry(out.coverage, 'gcp_storage')).toMatchObject({
      status: 'PARTIAL',
      error: 'getIamPolicy raw-uploads: forbidden',
    });
    expect(events.some((e) => e.kind === 'retry')).toBe(false);
  });

  it('retries a 429 on the listing after its Retry-After', async () => {
    const routes = sampleGcpRoutes();
    const counter = { calls: 0 };
    routes['/storage/v1/b'] = once(
      {
        status: 429,
        headers: { 'retry-after': '2' },
        body: {
          error: {
            code: 429,
            message: 'The rate of change requests exceeds the rate limit.',
            errors: [{ reason: 'rateLimitExceeded' }],
          },
        },
      },
      routes['/storage/v1/b'],
      counter,
    );
    const { out, sleeps, events } = await collect(routes, ['gcp_storage']);
    expect(counter.calls).toBe(3);
    // The first pause is the server's Retry-After; later ones pace the slowed bucket.
    expect(sleeps[0]).toBe(2);
    expect(events.find((e) => e.kind === 'throttled')).toMatchObject({
      scope: `gcp/projects/${PROJECT}`,
      service: 'storage',
    });
    expect((out.assets ?? []).filter((a) => a.asset_type === 'GCS_BUCKET')).toHaveLength(2);
    expect(entry(out.coverage, 'gcp_storage')?.status).toBe('SUCCESS');
  });

  it('reports a denied bucket listing as FAILED and goes on with the other tasks', async () => {
    const routes = sampleGcpRoutes();
    routes['/storage/v1/b'] = {
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'does not have storage.buckets.list access',
          errors: [{ reason: 'forbidden' }],
        },
      },
    };
    const { out, errors } = await collect(routes, ['storage', 'data']);
    expect(entry(out.coverage, 'gcp_storage')).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(entry(out.coverage, 'gcp_storage')?.error).toMatch(/^forbidden: /);
    expect(errors.some((e) => e.startsWith(`gcp gcp_storage (${PROJECT}) access denied: forbidden`))).toBe(
      true,
    );
    expect(entry(out.coverage, 'gcp_cloudsql')?.status).toBe('SUCCESS');
    expect(entry(out.coverage, 'gcp_full')).toMatchObject({ status: 'PARTIAL' });
  });
});

describe('GcpCollector: Cloud SQL', () => {
  it('collects every page of instances with public IP, authorized networks, SSL mode and backups', async () => {
    const { out } = await collect(sampleGcpRoutes(), ['network', 'data']);
    const sql = (out.assets ?? []).filter((a) => a.asset_type === 'CLOUD_SQL');
    expect(sql.map((a) => a.name)).toEqual(['analytics-sql', 'reporting-replica']);
    expect(sql[0]).toMatchObject({
      arn: `//sqladmin.googleapis.com/projects/${PROJECT}/instances/analytics-sql`,
      region: 'europe-west1',
      tags: { env: 'prod' },
      is_internet_exposed: true,
      metadata: {
        database_version: 'POSTGRES_15',
        tier: 'db-custom-2-7680',
        public_ip: true,
        authorized_networks: ['0.0.0.0/0', '198.51.100.0/24'],
        ssl_mode: 'ALLOW_UNENCRYPTED_AND_ENCRYPTED',
        require_ssl: false,
        backup_enabled: true,
        point_in_time_recovery: true,
      },
    });
    const open = (out.edges ?? []).find(
      (e) => e.target_id === sql[0]?.id && e.edge_type === 'INTERNET_EXPOSED',
    );
    expect(open).toMatchObject({ source_id: '0.0.0.0/0', ports: [5432], protocol: 'TCP', cidr: '0.0.0.0/0' });
    expect(sql[1]).toMatchObject({
      is_internet_exposed: false,
      metadata: { public_ip: false, ssl_mode: 'ENCRYPTED_ONLY', require_ssl: true, backup_enabled: false },
    });
    const lines = edgeLines(out);
    expect(lines.has('analytics-vpc CONTAINS reporting-replica')).toBe(true);
    expect(lines.has('reporting-replica REFERENCES analytics-sql')).toBe(true);
    expect(
      handler?.requests.filter((r) => r.startsWith(`GET /v1/projects/${PROJECT}/instances`)),
    ).toHaveLength(2);
    expect(entry(out.coverage, 'gcp_cloudsql')).toMatchObject({ status: 'SUCCESS', asset_count: 2 });
  });

  it('reports a denied SQL Admin API in coverage', async () => {
    const routes = sampleGcpRoutes();
    routes[`/v1/projects/${PROJECT}/instances`] = {
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'The client is not authorized to make this request.',
          status: 'PERMISSION_DENIED',
        },
      },
    };
    const { out, errors, events } = await collect(routes, ['gcp_cloudsql']);
    expect(entry(out.coverage, 'gcp_cloudsql')).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(errors.some((e) => e.startsWith(`gcp gcp_cloudsql (${PROJECT}) access denied`))).toBe(true);
    expect(events.some((e) => e.kind === 'retry')).toBe(false);
  });
});

describe('GcpCollector: cancellation and endpoints', () => {
  it('stops between bucket pages when the signal aborts', async () => {
    const controller = new AbortController();
    const routes = sampleGcpRoutes();
    const list = routes['/storage/v1/b'];
    routes['/storage/v1/b'] = (req, url) => {
      controller.abort(new Error('cancelled by the caller'));
      return typeof list === 'function' ? list(req, url) : (list ?? {});
    };
    handler = await startGcpHandler(routes);
    const engine = createCollectorEngine({
      collectors: [new GcpCollector({ clientSettings: handler.settings })],
    });
    await expect(
      engine.mapInventory({
        config: CloudgConfig.parse({ providers: ['gcp'], gcp: { projects: [PROJECT] } }),
        providers: ['gcp'],
        regions: null,
        services: ['storage', 'data'],
        taggingSweep: null,
        signal: controller.signal,
        hooks: SILENT_HOOKS,
      }),
    ).rejects.toThrow('cancelled by the caller');
    expect(handler.requests.filter((r) => r.startsWith('GET /storage/v1/b?'))).toHaveLength(1);
    expect(handler.requests.some((r) => r.includes('/iam') || r.includes('/instances'))).toBe(false);
  });

  it('sends Storage requests to a stand-in, else STORAGE_EMULATOR_HOST (unauthenticated), else Google', () => {
    expect(storageBase({ apiEndpoint: '127.0.0.1', port: 8080, protocol: 'http' }, {})).toEqual({
      base: 'http://127.0.0.1:8080',
      emulator: false,
    });
    expect(storageBase({}, { STORAGE_EMULATOR_HOST: 'localhost:4443' })).toEqual({
      base: 'http://localhost:4443',
      emulator: true,
    });
    expect(storageBase({}, { STORAGE_EMULATOR_HOST: 'https://gcs.test' })).toEqual({
      base: 'https://gcs.test',
      emulator: true,
    });
    expect(storageBase({}, {})).toEqual({ base: STORAGE_ENDPOINT, emulator: false });
  });
});
