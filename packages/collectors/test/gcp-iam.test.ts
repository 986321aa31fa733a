/**
 * Google Cloud IAM as INVENTORY_INTERNALS.md 9.5 describes it, against the REST stand-in:
 * service accounts with their own policies, impersonation roles as `ASSUMES_ROLE` edges, and
 * `allUsers` / `allAuthenticatedUsers`, which mark the resource exposed and create no principal.
 */
import { CloudgConfig, type EngineCollection, type NetworkEdge } from '@cloudg/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { GcpCollector } from '../src/gcp/index.js';
import { buildAsset, createCollectorEngine, rel, SILENT_HOOKS } from '../src/index.js';
import {
  DEPLOY_SA,
  type GcpHandler,
  type GcpRoutes,
  PROJECT,
  sampleGcpRoutes,
  startGcpHandler,
  WORKER_SA,
} from './support/gcp-handler.js';

let handler: GcpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  handler = undefined;
});

async function collect(routes: GcpRoutes, services: string[] | null = null): Promise<EngineCollection> {
  handler = await startGcpHandler(routes);
  const engine = createCollectorEngine({
    collectors: [new GcpCollector({ clientSettings: handler.settings })],
    governor: { sleep: async () => {}, random: () => 0 },
  });
  return engine.mapInventory({
    config: CloudgConfig.parse({ providers: ['gcp'], gcp: { projects: [PROJECT] } }),
    providers: ['gcp'],
    regions: null,
    services,
    taggingSweep: null,
    signal: new AbortController().signal,
    hooks: SILENT_HOOKS,
  });
}

function edgesNamed(out: EngineCollection): Map<string, NetworkEdge> {
  const name = new Map((out.assets ?? []).map((a) => [a.id, a.name]));
  return new Map(
    (out.edges ?? []).map((e) => [
      `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
      e,
    ]),
  );
}

/** The sample project's policy with extra bindings. */
function withProjectBindings(bindings: { role: string; members: string[] }[]): GcpRoutes {
  const routes = sampleGcpRoutes();
  const path = `/v3/projects/${PROJECT}:getIamPolicy`;
  const base = routes[path] as { body: { bindings: unknown[] } };
  routes[path] = { body: { ...base.body, bindings: [...base.body.bindings, ...bindings] } };
  return routes;
}

describe('GcpCollector: IAM', () => {
  it('collects every page of service accounts, each known by the identifiers references use', async () => {
    const out = await collect(sampleGcpRoutes(), ['compute', 'identity']);
    const accounts = (out.assets ?? []).filter((a) => a.asset_type === 'SERVICE_ACCOUNT');
    expect(accounts.map((a) => a.name)).toEqual([WORKER_SA, DEPLOY_SA]);
    expect(accounts[0]).toMatchObject({
      arn: `//iam.googleapis.com/projects/${PROJECT}/serviceAccounts/${WORKER_SA}`,
      provider: 'GCP',
      account_id: PROJECT,
      metadata: { email: WORKER_SA, display_name: 'worker', disabled: false, iam_policy_read: true },
    });
    expect(accounts[0]?.metadata.aliases).toEqual(
      expect.arrayContaining([`serviceAccount:${WORKER_SA}`, `gcp-principal:serviceAccount:${WORKER_SA}`]),
    );
    // The instance runs as the collected account, not as a placeholder.
    const edges = edgesNamed(out);
    expect(edges.has(`worker-1 ASSUMES_ROLE ${WORKER_SA}`)).toBe(true);
    expect((out.assets ?? []).some((a) => a.arn?.startsWith('gcp-principal:serviceAccount:'))).toBe(false);
    expect(
      handler?.requests.filter((r) => r.startsWith(`GET /v1/projects/${PROJECT}/serviceAccounts`)),
    ).toEqual([
      `GET /v1/projects/${PROJECT}/serviceAccounts?pageSize=100`,
      `GET /v1/projects/${PROJECT}/serviceAccounts?pageSize=100&pageToken=sa2`,
    ]);
    expect(handler?.requests).toContain(
      `POST /v1/projects/${PROJECT}/serviceAccounts/${DEPLOY_SA}:getIamPolicy`,
    );
  });

  it('makes impersonation roles on a service account an ASSUMES_ROLE edge with every role, other roles a grant', async () => {
    const out = await collect(sampleGcpRoutes(), ['identity']);
    const edges = edgesNamed(out);
    expect(edges.get(`ci@example.com ASSUMES_ROLE ${DEPLOY_SA}`)).toMatchObject({
      relationship: 'ROLE_ASSUMES_ROLE',
      properties: {
        role: 'roles/iam.serviceAccountTokenCreator',
        roles: ['roles/iam.serviceAccountTokenCreator', 'roles/iam.serviceAccountUser'],
      },
    });
    expect(edges.has(`ci@example.com GRANTS_ACCESS ${DEPLOY_SA}`)).toBe(false);
    expect(edges.get(`analysts@example.com GRANTS_ACCESS ${DEPLOY_SA}`)).toMatchObject({
      relationship: 'POLICY_ALLOWS_ACTION',
      properties: { role: 'roles/iam.serviceAccountKeyAdmin' },
    });
    expect(edges.get(`alice@example.com GRANTS_ACCESS ${PROJECT}`)).toMatchObject({
      relationship: 'POLICY_ALLOWS_ACTION',
      properties: { role: 'roles/viewer', roles: ['roles/viewer'] },
    });
  });

  it('lets an impersonation role on the project act as each of its service accounts', async () => {
    const out = await collect(
      withProjectBindings([
        { role: 'roles/iam.serviceAccountTokenCreator', members: ['user:ops@example.com'] },
      ]),
      ['identity'],
    );
    const edges = edgesNamed(out);
    expect(edges.has(`ops@example.com GRANTS_ACCESS ${PROJECT}`)).toBe(true);
    expect(edges.get(`ops@example.com ASSUMES_ROLE ${WORKER_SA}`)).toMatchObject({
      relationship: 'ROLE_ASSUMES_ROLE',
    });
    expect(edges.has(`ops@example.com ASSUMES_ROLE ${DEPLOY_SA}`)).toBe(true);
    // A plain role on the project stays a grant to the project only.
    expect(edges.has(`alice@example.com ASSUMES_ROLE ${WORKER_SA}`)).toBe(false);
  });

  it('creates no principal for allUsers or allAuthenticatedUsers on the project, and marks it exposed', async () => {
    const out = await collect(
      withProjectBindings([
        { role: 'roles/viewer', members: ['allUsers'] },
        { role: 'roles/browser', members: ['allAuthenticatedUsers', 'user:bob@example.com'] },
      ]),
      ['identity'],
    );
    const assets = out.assets ?? [];
    expect(
      assets.filter(
        (a) => /all(Authenticated)?Users/.test(a.arn ?? '') || /all(Authenticated)?Users/.test(a.name),
      ),
    ).toEqual([]);
    const project = assets.find((a) => a.arn === `//cloudresourcemanager.googleapis.com/projects/${PROJECT}`);
    expect(project).toMatchObject({
      is_internet_exposed: true,
      metadata: {
        public_access: [
          { member: 'allUsers', role: 'roles/viewer' },
          { member: 'allAuthenticatedUsers', role: 'roles/browser' },
        ],
      },
    });
    expect(edgesNamed(out).get(`0.0.0.0/0 INTERNET_EXPOSED ${PROJECT}`)).toMatchObject({
      cidr: '0.0.0.0/0',
      properties: { members: ['allAuthenticatedUsers', 'allUsers'] },
    });
    // The other member of the public binding is still granted.
    expect(edgesNamed(out).has(`bob@example.com GRANTS_ACCESS ${PROJECT}`)).toBe(true);
  });

  it('types federated and convenience members as the reference does, and ignores deleted ones', async () => {
    const pool =
      'principalSet://iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/github/attribute.repository/acme/app';
    const out = await collect(
      withProjectBindings([
        {
          role: 'roles/viewer',
          members: [pool, 'projectEditor:proj-analytics', 'deleted:user:gone@example.com?uid=1'],
        },
      ]),
      ['identity'],
    );
    const byArn = new Map((out.assets ?? []).map((a) => [a.arn, a]));
    expect(byArn.get(`gcp-principal:${pool}`)).toMatchObject({
      asset_type: 'IDENTITY_PROVIDER',
      name: pool,
      metadata: { principal_type: 'principalSet' },
    });
    expect(byArn.get('gcp-principal:projectEditor:proj-analytics')).toMatchObject({
      asset_type: 'IDENTITY_GROUP',
    });
    expect([...byArn.keys()].some((arn) => arn?.includes('gone@example.com'))).toBe(false);
  });

  it('keeps the project unexposed when no policy names a public member', async () => {
    const out = await collect(sampleGcpRoutes(), ['identity']);
    const project = (out.assets ?? []).find((a) => a.asset_type === 'CLOUD_ACCOUNT');
    expect(project?.is_internet_exposed).toBe(false);
    expect(project?.metadata.public_access).toBeUndefined();
  });

  it('keeps a service account whose policy it may not read, PARTIAL in coverage', async () => {
    const routes = sampleGcpRoutes();
    routes[`/v1/projects/${PROJECT}/serviceAccounts/${DEPLOY_SA}:getIamPolicy`] = {
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'Permission iam.serviceAccounts.getIamPolicy denied',
          status: 'PERMISSION_DENIED',
        },
      },
    };
    const out = await collect(routes, ['identity']);
    const deploy = (out.assets ?? []).find((a) => a.name === DEPLOY_SA);
    expect(deploy?.metadata.iam_policy_read).toBe(false);
    expect(edgesNamed(out).has(`ci@example.com ASSUMES_ROLE ${DEPLOY_SA}`)).toBe(false);
    const entry = (out.coverage ?? [])
      .flatMap((c) => c.services)
      .find((s) => s.service === 'gcp_service_accounts');
    expect(entry?.status).toBe('PARTIAL');
    expect(entry?.error).toContain(`getIamPolicy ${DEPLOY_SA}: PERMISSION_DENIED`);
  });
});

describe('engine: principal placeholders', () => {
  it("folds a placeholder into the service account collected later, keeping the placeholder's grants", async () => {
    const email = 'etl@other-proj.iam.gserviceaccount.com';
    const placeholder = buildAsset({
      arn: `gcp-principal:serviceAccount:${email}`,
      name: email,
      asset_type: 'SERVICE_ACCOUNT',
      provider: 'GCP',
      metadata: { placeholder: true, discovered_via: 'iam_policy' },
      aliases: [`serviceAccount:${email}`],
      relations: [
        rel(
          `//cloudresourcemanager.googleapis.com/projects/${PROJECT}`,
          'GRANTS_ACCESS',
          'POLICY_ALLOWS_ACTION',
        )!,
      ],
    });
    const project = buildAsset({
      arn: `//cloudresourcemanager.googleapis.com/projects/${PROJECT}`,
      name: PROJECT,
      asset_type: 'CLOUD_ACCOUNT',
      provider: 'GCP',
      account_id: PROJECT,
    });
    const account = buildAsset({
      arn: `//iam.googleapis.com/projects/other-proj/serviceAccounts/${email}`,
      name: email,
      asset_type: 'SERVICE_ACCOUNT',
      provider: 'GCP',
      account_id: 'other-proj',
      aliases: [`serviceAccount:${email}`, `gcp-principal:serviceAccount:${email}`],
    });
    const engine = createCollectorEngine({
      collectors: [
        {
          provider: 'gcp',
          collect: async () => ({
            assets: [project, placeholder, account],
            edges: [],
            coverage: [],
            regions: [],
          }),
        },
      ],
    });
    const out = await engine.mapInventory({
      config: CloudgConfig.parse({}),
      providers: ['gcp'],
      regions: null,
      services: null,
      taggingSweep: null,
      signal: new AbortController().signal,
      hooks: SILENT_HOOKS,
    });
    expect((out.assets ?? []).filter((a) => a.name === email).map((a) => a.arn)).toEqual([account.arn]);
    expect(edgesNamed(out).has(`${email} GRANTS_ACCESS ${PROJECT}`)).toBe(true);
    expect(out.unresolved_references ?? []).toEqual([]);
  });
});
