/**
 * Google Cloud and Azure collections from the REST and ARM stand-ins, through the catalog's own
 * tools: what the Cloud Storage, Cloud SQL, Key Vault and Cosmos DB collectors declare becomes
 * reachability findings exactly as on a loaded map (the bundled estate's public raw-uploads
 * bucket; a Cloud SQL instance whose authorized networks admit the internet; a vault and a
 * Cosmos DB account open to every network).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudgConfig, configureLive, createCatalogLayer, defaultRegistry, Workspace } from '@cloudg/catalog';
import { Principal } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AzureCollector } from '../src/azure/index.js';
import { GcpCollector } from '../src/gcp/index.js';
import { createCollectorEngine } from '../src/index.js';
import { FAKE_AZURE_CREDENTIAL, SUB, sampleArmRoutes, startArmHandler } from './support/arm-handler.js';
import { type GcpHandler, PROJECT, sampleGcpRoutes, startGcpHandler } from './support/gcp-handler.js';

let dir: string;
let handler: GcpHandler;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-gcp-e2e-'));
  handler = await startGcpHandler(sampleGcpRoutes());
});
afterEach(async () => {
  await handler.close();
  await rm(dir, { recursive: true, force: true });
});

describe('map_inventory on the Google Cloud collector', () => {
  it('yields reachability findings for the public bucket and the open Cloud SQL instance', async () => {
    const ws = new Workspace({
      allowedRoots: [dir],
      outputDir: join(dir, 'out'),
      cwd: dir,
      config: CloudgConfig.parse({ providers: ['gcp'], gcp: { projects: [PROJECT] } }),
    });
    configureLive(ws, { preflight: { env: { PATH: '' }, homeDir: dir, probe: async () => null } });
    const engine = createCollectorEngine({
      collectors: [new GcpCollector({ clientSettings: handler.settings })],
    });
    const layer = createCatalogLayer({ workspace: ws, registry: defaultRegistry({ live: { engine } }) });
    const admin = new Principal({ id: 'ops', roles: ['admin'] });

    const mapped = await layer.callTool(
      'map_inventory',
      { providers: ['gcp'], name: 'gcp-live', preflight: false },
      { principal: admin },
    );
    expect(mapped.isError, JSON.stringify(mapped.content)).toBe(false);
    expect((mapped.structured as { errors: string[] }).errors).toEqual([]);

    const reach = await layer.callTool(
      'reachability_findings',
      { dataset: 'gcp-live' },
      { principal: admin },
    );
    expect(reach.isError, JSON.stringify(reach.content)).toBe(false);
    const findings = (reach.structured as { items: { title: string; severity: string }[] }).items;
    const titles = findings.map((f) => `${f.severity} ${f.title}`);
    expect(titles).toContain('CRITICAL Internet-exposed sensitive data store: analytics-sql');
    expect(titles).toContain('HIGH Unexpected internet-exposed resource: raw-uploads');
    // Enforced public access prevention and a private replica: not reachable.
    expect(titles.some((t) => t.includes('analytics-exports') || t.includes('reporting-replica'))).toBe(
      false,
    );
  });
  it('yields reachability findings for the open vault and Cosmos DB account on Azure', async () => {
    const arm = await startArmHandler(sampleArmRoutes());
    try {
      const ws = new Workspace({
        allowedRoots: [dir],
        outputDir: join(dir, 'out'),
        cwd: dir,
        config: CloudgConfig.parse({ providers: ['azure'], azure: { subscriptions: [SUB] } }),
      });
      configureLive(ws, { preflight: { env: { PATH: '' }, homeDir: dir, probe: async () => null } });
      const engine = createCollectorEngine({
        collectors: [
          new AzureCollector({
            clientSettings: { credential: FAKE_AZURE_CREDENTIAL, httpClient: arm.httpClient },
          }),
        ],
      });
      const layer = createCatalogLayer({ workspace: ws, registry: defaultRegistry({ live: { engine } }) });
      const admin = new Principal({ id: 'ops', roles: ['admin'] });
      const mapped = await layer.callTool(
        'map_inventory',
        { providers: ['azure'], name: 'azure-live', preflight: false },
        { principal: admin },
      );
      expect(mapped.isError, JSON.stringify(mapped.content)).toBe(false);
      const reach = await layer.callTool(
        'reachability_findings',
        { dataset: 'azure-live' },
        { principal: admin },
      );
      const titles = (reach.structured as { items: { title: string; severity: string }[] }).items.map(
        (f) => `${f.severity} ${f.title}`,
      );
      expect(titles).toEqual(
        expect.arrayContaining([
          'HIGH Unexpected internet-exposed resource: ops-kv',
          'HIGH Unexpected internet-exposed resource: orders-cosmos',
        ]),
      );
      // Behind a deny-by-default rule set, or IP rules: not reachable.
      expect(titles.some((t) => t.endsWith(': hub-kv') || t.endsWith(': events-cosmos'))).toBe(false);
    } finally {
      await arm.close();
    }
  });
});
