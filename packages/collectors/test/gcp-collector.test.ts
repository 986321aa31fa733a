import { afterEach, describe, expect, it } from 'vitest';
import { GcpCollector } from '../src/gcp/index.js';
import { coverageEntry, runEngine } from './support/engine-run.js';
import {
  type GcpHandler,
  type GcpRoutes,
  PROJECT,
  sampleGcpRoutes,
  startGcpHandler,
} from './support/gcp-handler.js';

let handler: GcpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

async function collect(routes: GcpRoutes, services: string[] | null = null) {
  handler = await startGcpHandler(routes);
  return runEngine(
    new GcpCollector({ clientSettings: handler.settings }),
    'gcp',
    { gcp: { projects: [PROJECT] } },
    services,
  );
}

const entry = coverageEntry;

describe('GcpCollector', () => {
  it('collects networks, instances, firewall exposure and IAM bindings, linked', async () => {
    const { out } = await collect(sampleGcpRoutes());
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const lines = new Set(
      (out.edges ?? []).map(
        (e) =>
          `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
      ),
    );
    for (const line of [
      'analytics-vpc CONTAINS analytics-eu',
      'analytics-eu CONTAINS worker-1',
      'analytics-eu CONTAINS batch-1',
      '0.0.0.0/0 SECURITY_GROUP_RULE worker-1',
      'worker-1 ASSUMES_ROLE worker@proj-analytics.iam.gserviceaccount.com',
      `worker@proj-analytics.iam.gserviceaccount.com GRANTS_ACCESS ${PROJECT}`,
      `alice@example.com GRANTS_ACCESS ${PROJECT}`,
      'allow-ssh PROTECTS analytics-vpc',
    ])
      expect(lines.has(line), line).toBe(true);
    const worker = assets.find((a) => a.name === 'worker-1');
    expect(worker).toMatchObject({
      arn: `//compute.googleapis.com/projects/${PROJECT}/zones/europe-west1-b/instances/worker-1`,
      asset_type: 'GCE_INSTANCE',
      provider: 'GCP',
      region: 'europe-west1-b',
      account_id: PROJECT,
      is_internet_exposed: true,
    });
    const ssh = (out.edges ?? []).find((e) => e.source_id === '0.0.0.0/0' && e.target_id === worker?.id);
    expect(ssh).toMatchObject({ ports: [22], protocol: 'TCP', cidr: '0.0.0.0/0', direction: 'ingress' });
    // No external IP: the open rule does not expose it.
    expect(assets.find((a) => a.name === 'batch-1')?.is_internet_exposed).toBe(false);
    expect(assets.find((a) => a.arn === 'gcp-principal:group:analysts@example.com')).toMatchObject({
      asset_type: 'IDENTITY_GROUP',
      metadata: {
        discovered_via: 'iam_policy',
        placeholder: true,
        roles: ['roles/iam.serviceAccountKeyAdmin', 'roles/viewer'],
      },
    });
    expect(entry(out.coverage, 'gcp_full')).toMatchObject({ status: 'SUCCESS' });
  });

  it('follows the aggregated list to its second page', async () => {
    const { out } = await collect(sampleGcpRoutes(), ['compute']);
    expect((out.assets ?? []).filter((a) => a.asset_type === 'GCE_INSTANCE').map((a) => a.name)).toEqual([
      'worker-1',
      'batch-1',
    ]);
    expect(handler?.requests.filter((r) => r.includes('aggregated/instances'))).toHaveLength(2);
  });

  it('retries a 429 and then collects', async () => {
    const routes = sampleGcpRoutes();
    const path = `/compute/v1/projects/${PROJECT}/global/networks`;
    const ok = routes[path];
    let calls = 0;
    routes[path] = (req, url) => {
      calls += 1;
      if (calls === 1)
        return {
          status: 429,
          headers: { 'retry-after': '3' },
          body: {
            error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' },
          },
        };
      return typeof ok === 'function' ? ok(req, url) : (ok ?? {});
    };
    const { out, events } = await collect(routes, ['gcp_network']);
    expect(calls).toBe(2);
    expect(events.filter((e) => e.kind === 'throttled')).toHaveLength(1);
    expect(events.find((e) => e.kind === 'throttled')).toMatchObject({
      scope: `gcp/projects/${PROJECT}`,
      service: 'compute',
    });
    expect((out.assets ?? []).some((a) => a.name === 'analytics-vpc')).toBe(true);
    expect(entry(out.coverage, 'gcp_network')?.status).toBe('SUCCESS');
  });

  it('reports a denied API in coverage and collects the rest', async () => {
    const routes = sampleGcpRoutes();
    routes[`/v3/projects/${PROJECT}:getIamPolicy`] = {
      status: 403,
      body: {
        error: { code: 403, message: `The caller does not have permission`, status: 'PERMISSION_DENIED' },
      },
    };
    const { out, errors, events } = await collect(routes);
    expect(entry(out.coverage, 'gcp_iam_policies')).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(errors.some((e) => e.startsWith(`gcp gcp_iam_policies (${PROJECT}) access denied`))).toBe(true);
    expect(events.some((e) => e.kind === 'retry')).toBe(false);
    expect((out.assets ?? []).some((a) => a.name === 'worker-1')).toBe(true);
    expect(entry(out.coverage, 'gcp_full')).toMatchObject({ status: 'PARTIAL' });
  });
});
