/**
 * `map_inventory`'s `services` families against the collectors' tasks: every family the tool
 * documents (read from its published input schema, so a family added there fails here until the
 * table says what it selects) selects a task on every cloud that has such services, and every
 * task is reachable through some family.
 */
import { createCatalogLayer, defaultRegistry, Workspace } from '@cloudg/catalog';
import { describe, expect, it } from 'vitest';
import { AWS_TASKS } from '../src/aws/index.js';
import { AZURE_TASKS } from '../src/azure/index.js';
import { SERVICE_FAMILY_TASKS, selected } from '../src/families.js';
import { GCP_TASKS } from '../src/gcp/index.js';
import { createCollectorEngine, type LiveProvider } from '../src/index.js';

const TASKS: Record<LiveProvider, readonly string[]> = {
  aws: AWS_TASKS.map((t) => t.name),
  azure: AZURE_TASKS.map((t) => t.name),
  gcp: GCP_TASKS.map((t) => t.name),
};

/** The clouds whose collected services belong to each family; the rest have none collected. */
const SERVED_BY: Record<string, readonly LiveProvider[]> = {
  network: ['aws', 'azure', 'gcp'],
  compute: ['aws', 'azure', 'gcp'],
  containers: [],
  kubernetes: [],
  serverless: ['aws'],
  integration: [],
  data: ['aws', 'azure', 'gcp'],
  storage: ['aws', 'azure', 'gcp'],
  identity: ['aws', 'azure', 'gcp'],
  security: ['aws'],
  dns: [],
  iac: [],
  logging: ['aws'],
};

function enumOf(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(enumOf);
  if (typeof schema !== 'object' || schema === null) return [];
  const record = schema as Record<string, unknown>;
  if (Array.isArray(record.enum)) return record.enum.filter((v): v is string => typeof v === 'string');
  return Object.values(record).flatMap(enumOf);
}

function documentedFamilies(): string[] {
  const layer = createCatalogLayer({
    workspace: new Workspace({ allowedRoots: [], cwd: process.cwd() }),
    registry: defaultRegistry({ live: { engine: createCollectorEngine({ collectors: [] }) } }),
  });
  const tool = layer.listTools().find((t) => t.name === 'map_inventory');
  const services = (tool?.inputSchema.properties as Record<string, unknown> | undefined)?.services;
  return [...new Set(enumOf(services))];
}

const selects = (family: string, provider: LiveProvider) =>
  TASKS[provider].filter((task) => selected([family], provider, task));

describe('service families', () => {
  const families = documentedFamilies();

  it("are map_inventory's documented list, each with an entry in the table", () => {
    expect(families).toEqual([
      'all',
      'network',
      'compute',
      'containers',
      'kubernetes',
      'serverless',
      'integration',
      'data',
      'storage',
      'identity',
      'security',
      'dns',
      'iac',
      'logging',
    ]);
    expect(Object.keys(SERVICE_FAMILY_TASKS).sort()).toEqual(families.filter((f) => f !== 'all').sort());
  });

  it('each select at least one task on every cloud that has such services, and none elsewhere', () => {
    for (const family of families.filter((f) => f !== 'all')) {
      for (const provider of ['aws', 'azure', 'gcp'] as const) {
        const served = SERVED_BY[family]?.includes(provider) ?? false;
        expect(selects(family, provider).length > 0, `${family} on ${provider}`).toBe(served);
      }
    }
  });

  it('reach every collector task, and name only tasks that exist', () => {
    for (const provider of ['aws', 'azure', 'gcp'] as const) {
      const reachable = new Set(
        families.filter((f) => f !== 'all').flatMap((family) => selects(family, provider)),
      );
      expect(
        TASKS[provider].filter((task) => !reachable.has(task)),
        provider,
      ).toEqual([]);
      for (const [family, byCloud] of Object.entries(SERVICE_FAMILY_TASKS))
        for (const task of byCloud[provider] ?? [])
          expect(TASKS[provider], `${family} names ${provider} ${task}`).toContain(task);
    }
  });

  it("select by the reference's task families: Organizations, KMS and Secrets Manager under identity, CloudTrail under logging", () => {
    expect(selects('identity', 'aws')).toEqual(['iam', 'organizations', 'kms', 'secretsmanager']);
    expect(selects('logging', 'aws')).toEqual(['cloudtrail']);
    expect(selects('security', 'aws')).toEqual(['guardduty']);
    expect(selects('serverless', 'aws')).toEqual(['lambda']);
    expect(selects('data', 'azure')).toEqual(['azure_sql', 'azure_cosmosdb']);
    expect(selects('identity', 'azure')).toEqual(['azure_keyvault', 'azure_authorization']);
  });

  it('take task names, and all, empty or no filter select everything', () => {
    expect(selects('organizations', 'aws')).toEqual(['organizations']);
    expect(selects('gcp_firewall', 'gcp')).toEqual(['gcp_firewall']);
    expect(selects('all', 'azure')).toEqual(TASKS.azure);
    expect(TASKS.gcp.filter((t) => selected([], 'gcp', t))).toEqual(TASKS.gcp);
    expect(TASKS.gcp.filter((t) => selected(null, 'gcp', t))).toEqual(TASKS.gcp);
    // A name that matches nothing selects nothing; an inherited property name is no family.
    expect(selects('databse', 'aws')).toEqual([]);
    expect(selects('constructor', 'aws')).toEqual([]);
  });
});
