import { allowAllPolicy, Layer } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { CATALOG_INSTRUCTIONS, createCatalogLayer, defaultRegistry, Workspace } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { estate } from './support.js';

type Meta = [
  category: string,
  sensitivity: string,
  capabilities: string[],
  ro: boolean,
  destructive: boolean,
  idempotent: boolean,
  outputSchema: boolean,
];

/** The metadata line of each entry in the reference (category, sensitivity, capabilities, hints, outputSchema). */
const EXPECTED: Record<string, Meta> = {
  workspace_status: ['workspace', 'internal', ['read_state'], true, false, true, true],
  list_datasets: ['workspace', 'internal', ['read_state'], true, false, true, false],
  load_dataset: [
    'workspace',
    'internal',
    ['read_fs', 'read_state', 'write_state'],
    false,
    false,
    false,
    false,
  ],
  select_dataset: ['workspace', 'internal', ['read_state', 'write_state'], false, false, true, false],
  unload_dataset: ['workspace', 'internal', ['read_state', 'write_state'], false, true, true, false],
  snapshot_dataset: ['workspace', 'internal', ['read_state', 'write_state'], false, false, false, false],
  diff_datasets: ['workspace', 'confidential', ['read_state'], true, false, true, true],
  dataset_summary: ['workspace', 'internal', ['read_state'], true, false, true, true],
  find_assets: ['inventory', 'confidential', ['read_state'], true, false, true, true],
  get_asset: ['inventory', 'confidential', ['read_state'], true, false, true, true],
  get_asset_metadata: ['inventory', 'restricted', ['read_state'], true, false, true, false],
  count_assets: ['inventory', 'internal', ['read_state'], true, false, true, true],
  list_asset_types: ['inventory', 'internal', ['read_state'], true, false, true, false],
  list_accounts: ['inventory', 'confidential', ['read_state'], true, false, true, false],
  list_regions: ['inventory', 'internal', ['read_state'], true, false, true, false],
  list_tags: ['inventory', 'confidential', ['read_state'], true, false, true, false],
  coverage_report: ['inventory', 'internal', ['read_state'], true, false, true, false],
  unresolved_references: ['inventory', 'confidential', ['read_state'], true, false, true, false],
  organization_topology: ['inventory', 'confidential', ['read_state'], true, false, true, false],
  list_findings: ['findings', 'confidential', ['read_state'], true, false, true, true],
  get_finding: ['findings', 'confidential', ['read_state'], true, false, true, false],
  findings_summary: ['findings', 'internal', ['read_state'], true, false, true, false],
  findings_for_asset: ['findings', 'confidential', ['read_state'], true, false, true, true],
  top_risks: ['findings', 'confidential', ['read_state'], true, false, true, true],
  suppress_findings: ['findings', 'confidential', ['read_state', 'write_state'], false, false, true, false],
  unsuppress_findings: ['findings', 'confidential', ['read_state', 'write_state'], false, false, true, false],
  ingest_reports: [
    'findings',
    'confidential',
    ['read_fs', 'read_state', 'write_state'],
    false,
    false,
    false,
    false,
  ],
  reachability_findings: [
    'findings',
    'confidential',
    ['read_state', 'write_state'],
    false,
    false,
    false,
    false,
  ],
  normalise_findings: ['findings', 'internal', ['read_state', 'write_state'], false, false, true, false],
  list_frameworks: ['compliance', 'public', [], true, false, true, false],
  compliance_summary: ['compliance', 'internal', ['read_state'], true, false, true, true],
  list_controls: ['compliance', 'internal', ['read_state'], true, false, true, false],
  control_status: ['compliance', 'confidential', ['read_state'], true, false, true, false],
  compliance_gaps: ['compliance', 'confidential', ['read_state'], true, false, true, false],
};

describe('the default registry', () => {
  const layer = new Layer<Workspace>({
    registry: defaultRegistry(),
    app: new Workspace({ allowedRoots: [estate], cwd: estate }),
  });
  const wire = new Map(layer.toolsWire().map((t) => [t.name as string, t]));

  it.each(Object.entries(EXPECTED))('%s carries the documented metadata', (name, expected) => {
    const [category, sensitivity, capabilities, readOnly, destructive, idempotent, hasOutput] = expected;
    const spec = layer.registry.tools.get(name);
    expect(spec).toBeDefined();
    expect(spec?.category).toBe(category);
    expect(spec?.sensitivity).toBe(sensitivity);
    expect([...(spec?.capabilities ?? [])].sort()).toEqual(capabilities);
    expect(spec?.timeoutSeconds).toBeUndefined();
    const tool = wire.get(name);
    expect(tool?.annotations).toMatchObject({
      readOnlyHint: readOnly,
      destructiveHint: destructive,
      idempotentHint: idempotent,
      openWorldHint: false,
    });
    expect(tool?.outputSchema !== undefined).toBe(hasOutput);
    expect(tool?.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it('tells the model about the catalog in its instructions unless the caller gives its own', () => {
    expect(createCatalogLayer().identity.instructions).toBe(CATALOG_INSTRUCTIONS);
    expect(CATALOG_INSTRUCTIONS).toContain('Start with workspace_status');
    expect(createCatalogLayer({ instructions: 'Ours.' }).identity.instructions).toBe('Ours.');
  });

  it('tags workspace_status and find_assets start-here, as the wire metadata shows', () => {
    expect(wire.get('find_assets')?._meta).toEqual({
      'cloudg/category': 'inventory',
      'cloudg/sensitivity': 'confidential',
      'cloudg/tags': ['start-here'],
    });
    expect(wire.get('find_assets')?.annotations).toEqual({
      title: 'Find assets',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(wire.get('workspace_status')?._meta).toMatchObject({ 'cloudg/tags': ['start-here'] });
  });

  it('registers the workspace and asset resources with their categories and sensitivities', () => {
    const reg = layer.registry;
    expect([...reg.resources.values()].map((r) => [r.uri, r.category, r.sensitivity])).toEqual(
      expect.arrayContaining([
        ['cloudg://workspace', 'workspace', 'internal'],
        ['cloudg://datasets', 'workspace', 'internal'],
      ]),
    );
    expect(
      [...reg.templates.values()].map((t) => [t.uriTemplate, t.sensitivity, Object.keys(t.completions)]),
    ).toEqual(
      expect.arrayContaining([
        ['cloudg://datasets/{dataset}/summary', 'internal', ['dataset']],
        ['cloudg://assets/{+ref}', 'confidential', ['ref']],
        ['cloudg://assets/{+ref}/neighbors', 'confidential', ['ref']],
        ['cloudg://assets/{+ref}/findings', 'confidential', ['ref']],
      ]),
    );
  });

  it('a category filter removes the resources along with the tools', () => {
    const inventoryOnly = new Layer<Workspace>({
      registry: defaultRegistry(),
      includeCategories: ['inventory'],
    });
    expect(inventoryOnly.listTools().every((t) => t.category === 'inventory')).toBe(true);
    expect(inventoryOnly.listTools()).toHaveLength(11);
    expect(inventoryOnly.listResources()).toEqual([]);
    expect(inventoryOnly.listResourceTemplates().map((t) => t.uriTemplate)).toEqual([
      'cloudg://assets/{+ref}',
    ]);
  });
});

describe('createCatalogLayer', () => {
  it('hands the workspace to handlers and forwards its change events', () => {
    const ws = workspaceAt(estate);
    const layer = createCatalogLayer({ workspace: ws, policy: allowAllPolicy, prefix: 'cloudg_' });
    expect(layer.app).toBe(ws);
    expect(layer.toolsWire().some((t) => t.name === 'cloudg_find_assets')).toBe(true);
    const events: [string, string | undefined][] = [];
    layer.onChange((kind, uri) => events.push([kind, uri]));
    ws.notify('resource', 'cloudg://workspace');
    expect(events).toEqual([['resource', 'cloudg://workspace']]);
  });
});
