/**
 * End to end: mocked AWS answers shaped like the sample estate's AWS account, collected and
 * linked by the engine, give a dataset on which the catalog's own `attack_paths` (through a real
 * catalog layer) finds the paths it finds on the bundled estate.
 */
import { join } from 'node:path';
import { CloudgConfig, createCatalogLayer, Dataset, sampleEstateDir, Workspace } from '@cloudg/catalog';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AwsCollector } from '../src/aws/index.js';
import { createCollectorEngine, type EngineCollection, SILENT_HOOKS } from '../src/index.js';
import { type AwsMocks, FAKE_CREDENTIALS, REGION, sampleAwsMocks } from './support/sample-aws.js';

interface PathResult {
  paths: { summary: string; edge_types: string[] }[];
  total_found: number;
}

let mocks: AwsMocks;
beforeEach(() => {
  mocks = sampleAwsMocks();
});
afterEach(() => mocks.restore());

async function collect(): Promise<EngineCollection> {
  const engine = createCollectorEngine({
    collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
  });
  return engine.mapInventory({
    config: CloudgConfig.parse({}),
    providers: ['aws'],
    regions: [REGION],
    services: null,
    taggingSweep: null,
    signal: new AbortController().signal,
    hooks: SILENT_HOOKS,
  });
}

async function summaries(ws: Workspace, dataset: string): Promise<Set<string>> {
  const layer = createCatalogLayer({ workspace: ws });
  const result = await layer.callTool('attack_paths', { max_paths: 50, dataset });
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return new Set((result.structured as unknown as PathResult).paths.map((p) => p.summary));
}

describe('a live AWS collection shaped like the sample estate', () => {
  it('lets attack_paths find the sample estate paths', async () => {
    const collected = await collect();
    const ws = new Workspace({ allowedRoots: [sampleEstateDir()] });
    ws.add(new Dataset({ name: 'live', kind: 'live', source: 'live', ...collected }));
    await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample', activate: false });

    const live = await summaries(ws, 'live');
    const bundled = await summaries(ws, 'sample');
    for (const path of [
      'web-alb -> web-tg -> web-1 -> app-role -> orders-db',
      'bastion -> bastion-admin -> orders-db-credentials',
    ]) {
      expect(bundled.has(path), `bundled: ${path}`).toBe(true);
      expect(live.has(path), `live: ${path} in ${[...live].join(' | ')}`).toBe(true);
    }
  });

  it('produces the documented edge types between the collected assets', async () => {
    const { assets = [], edges = [] } = await collect();
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const lines = new Set(
      edges.map(
        (e) =>
          `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
      ),
    );
    for (const line of [
      'prod-vpc CONTAINS prod-public-a',
      'prod-public-a CONTAINS web-alb',
      'prod-private-a CONTAINS web-1',
      '0.0.0.0/0 SECURITY_GROUP_RULE sg-admin',
      '0.0.0.0/0 INTERNET_EXPOSED web-alb',
      '0.0.0.0/0 INTERNET_EXPOSED prod-logs',
      'sg-app SECURITY_GROUP_RULE sg-db',
      'web-alb ATTACHED_TO sg-web',
      'web-alb LOAD_BALANCER_TARGET web-tg',
      'web-tg LOAD_BALANCER_TARGET web-2',
      'web-1 ASSUMES_ROLE app-role',
      'bastion ASSUMES_ROLE bastion-admin',
      'app-role GRANTS_ACCESS prod-data',
      'app-role GRANTS_ACCESS orders-db',
      'app-role IAM_TRUST external account 222222222222',
      'prod-data INVOKES api-handler',
      'api-handler ASSUMES_ROLE api-lambda-role',
      'api-handler REFERENCES orders-db-credentials',
      'orders-db REFERENCES prod-main-key',
      'orders-db-credentials REFERENCES prod-main-key',
      'prod-data REFERENCES prod-main-key',
    ])
      expect(lines.has(line), line).toBe(true);
    // The environment's plain values are dropped; only the variable names are kept.
    const fn = assets.find((a) => a.name === 'api-handler');
    expect(fn?.metadata.environment_keys).toEqual(['DB_PASSWORD', 'DB_SECRET']);
    expect(JSON.stringify(assets)).not.toContain('hunter2');
    // The bastion has a public address and a group open to the world.
    expect(assets.find((a) => a.name === 'bastion')?.is_internet_exposed).toBe(true);
    expect(assets.find((a) => a.name === 'web-1')?.is_internet_exposed).toBe(false);
  });
});
