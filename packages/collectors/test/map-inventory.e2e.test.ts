/**
 * The end-to-end check through the catalog's own live tools: `map_inventory`, served by
 * a catalog layer whose engine is this package's (AWS collector, every client mocked with
 * answers shaped like the sample estate's AWS account), yields a dataset on which `attack_paths`
 * finds the paths it finds on the bundled estate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetAccountAuthorizationDetailsCommand, IAMClient } from '@aws-sdk/client-iam';
import {
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  sampleEstateDir,
  Workspace,
} from '@cloudg/catalog';
import { Principal } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AwsCollector } from '../src/aws/index.js';
import { createCollectorEngine } from '../src/index.js';
import { type AwsMocks, FAKE_CREDENTIALS, REGION, sampleAwsMocks } from './support/sample-aws.js';

let dir: string;
let mocks: AwsMocks;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-collectors-'));
  mocks = sampleAwsMocks();
});
afterEach(async () => {
  mocks.restore();
  await rm(dir, { recursive: true, force: true });
});

describe('map_inventory on the collectors engine', () => {
  it('collects the mocked account into a dataset where attack_paths finds the sample paths', async () => {
    const ws = new Workspace({
      allowedRoots: [sampleEstateDir(), dir],
      outputDir: join(dir, 'out'),
      cwd: dir,
    });
    await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
    // The catalog's preflight reads these; the collector itself gets injected credentials.
    configureLive(ws, {
      preflight: {
        env: { AWS_ACCESS_KEY_ID: FAKE_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: 'x', PATH: '' },
        homeDir: dir,
        probe: async () => null,
      },
    });
    const engine = createCollectorEngine({
      collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
    });
    const layer = createCatalogLayer({ workspace: ws, registry: defaultRegistry({ live: { engine } }) });
    const admin = new Principal({ id: 'ops', roles: ['admin'] });

    const mapped = await layer.callTool(
      'map_inventory',
      { providers: ['aws'], regions: [REGION], name: 'live' },
      { principal: admin },
    );
    expect(mapped.isError, JSON.stringify(mapped.content)).toBe(false);
    expect((mapped.structured as { errors: string[] }).errors).toEqual([]);

    const paths = async (dataset: string) => {
      const result = await layer.callTool('attack_paths', { max_paths: 50, dataset }, { principal: admin });
      expect(result.isError, JSON.stringify(result.content)).toBe(false);
      return new Set((result.structured as { paths: { summary: string }[] }).paths.map((p) => p.summary));
    };
    // The IAM linter reads the trust policies the collector kept: documents found, none too wide.
    const linted = await layer.callTool(
      'run_scanners',
      { scanners: ['iam'], dataset: 'live' },
      { principal: admin },
    );
    expect(linted.structured).toMatchObject({ scanners: ['iam'], errors: [] });
    expect(ws.get('live').findings.filter((f) => f.source_tool === 'cloudg-iam')).toEqual([]);

    const live = await paths('live');
    const bundled = await paths('sample');
    for (const path of [
      'web-alb -> web-tg -> web-1 -> app-role -> orders-db',
      'bastion -> bastion-admin -> orders-db-credentials',
    ]) {
      expect(bundled.has(path), `bundled: ${path}`).toBe(true);
      expect(live.has(path), `live: ${path}`).toBe(true);
    }
  });

  it("run_scanners' IAM linter reports a role's inline policy that allows s3:* on every resource", async () => {
    // The sample's app-role, with one more inline policy granting too much.
    const details = await new IAMClient({ region: REGION, credentials: FAKE_CREDENTIALS }).send(
      new GetAccountAuthorizationDetailsCommand({}),
    );
    const wide = {
      Version: '2012-10-17',
      Statement: [{ Sid: 'AllBuckets', Effect: 'Allow', Action: 's3:*', Resource: '*' }],
    };
    mocks.iam.on(GetAccountAuthorizationDetailsCommand).resolves({
      ...details,
      RoleDetailList: (details.RoleDetailList ?? []).map((r) =>
        r.RoleName === 'app-role'
          ? {
              ...r,
              RolePolicyList: [
                ...(r.RolePolicyList ?? []),
                { PolicyName: 'buckets', PolicyDocument: encodeURIComponent(JSON.stringify(wide)) },
              ],
            }
          : r,
      ),
    });
    const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
    configureLive(ws, {
      preflight: {
        env: { AWS_ACCESS_KEY_ID: FAKE_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: 'x', PATH: '' },
        homeDir: dir,
        probe: async () => null,
      },
    });
    const engine = createCollectorEngine({
      collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
    });
    const layer = createCatalogLayer({ workspace: ws, registry: defaultRegistry({ live: { engine } }) });
    const admin = new Principal({ id: 'ops', roles: ['admin'] });
    const mapped = await layer.callTool(
      'map_inventory',
      { providers: ['aws'], regions: [REGION], services: ['identity'], name: 'live' },
      { principal: admin },
    );
    expect(mapped.isError, JSON.stringify(mapped.content)).toBe(false);

    const linted = await layer.callTool(
      'run_scanners',
      { scanners: ['iam'], dataset: 'live' },
      { principal: admin },
    );
    expect(linted.structured).toMatchObject({ scanners: ['iam'], errors: [] });
    const findings = ws.get('live').findings.filter((f) => f.source_tool === 'cloudg-iam');
    expect(findings.map((f) => [f.resource_arn, f.severity, f.evidence])).toEqual([
      [
        'arn:aws:iam::111111111111:role/app-role',
        'HIGH',
        'policy_document: statement AllBuckets allows s3:* on Resource *',
      ],
    ]);
  });
});
