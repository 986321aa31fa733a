import { realpathSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessDeniedError, InvalidArgumentsError, NotFoundError } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyEstate, workspaceAt } from '../../test/support/estate.js';
import { datasetSummary } from '../dataset/summary.js';
import { DatasetExistsError, NoDatasetError, WorkspaceConfigError } from './errors.js';
import type { Workspace } from './workspace.js';

let estate: { dir: string; cleanup: () => Promise<void> };
let ws: Workspace;

beforeEach(async () => {
  estate = await copyEstate();
  ws = workspaceAt(estate.dir);
});
afterEach(async () => {
  await estate.cleanup();
});

describe('loading the sample estate', () => {
  it('loads the inventory directory with its findings and organization, as load_dataset documents', async () => {
    const ds = await ws.load(join(estate.dir, 'inventory'), { name: 'sample' });
    expect(ws.activeName).toBe('sample');
    expect(ds.kind).toBe('inventory');
    expect(ds.metadata.findings_source).toBe(join(estate.dir, 'inventory', 'findings.json'));
    const summary = datasetSummary(ds);
    expect(summary).toMatchObject({
      dataset: 'sample',
      kind: 'inventory',
      source: join(estate.dir, 'inventory'),
      version: 0,
      providers: ['aws', 'azure', 'gcp'],
      total_assets: 44,
      total_edges: 56,
      total_findings: 12,
      open_findings: 11,
      suppressed_findings: 1,
      accounts: 5,
      regions: 5,
      internet_exposed: 6,
      cross_account_edges: 3,
      unlinked_assets: 2,
      unresolved_references: 1,
      compliance_frameworks: ['CIS-AWS', 'CIS-Azure', 'CIS-GCP', 'NIST-800-53', 'PCI-DSS'],
      assets_by_provider: { AWS: 36, AZURE: 5, GCP: 3 },
      has_organization: true,
      coverage_records: 0,
      organization: {
        id: 'o-sample',
        accounts: 2,
        ous: 1,
        control_tower: true,
        governed_regions: ['us-east-1', 'eu-west-1'],
      },
    });
    expect(summary.severity_breakdown).toEqual({ CRITICAL: 2, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 });
    expect(Object.keys(summary.severity_breakdown)).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);
    expect(Object.entries(summary.assets_by_type).slice(0, 5)).toEqual([
      ['SECURITY_GROUP', 4],
      ['IAM_ROLE', 4],
      ['CLOUD_ACCOUNT', 3],
      ['EC2', 3],
      ['S3_BUCKET', 3],
    ]);
    expect(Object.keys(summary.assets_by_type)).toHaveLength(15);
    expect(Object.entries(summary.edges_by_type).slice(0, 5)).toEqual([
      ['CONTAINS', 12],
      ['GOVERNS', 1],
      ['SECURITY_GROUP_RULE', 4],
      ['INTERNET_EXPOSED', 4],
      ['ATTACHED_TO', 6],
    ]);
    expect(Object.keys(summary.edges_by_type)).toHaveLength(15);
  });

  it('loads report/findings.json by a relative path as a second, inactive dataset', async () => {
    await ws.load('inventory', { name: 'sample' });
    const ds = await ws.load('report/findings.json', { name: 'report', activate: false });
    expect(ws.activeName).toBe('sample');
    const summary = datasetSummary(ds);
    expect(summary).toMatchObject({
      kind: 'report',
      source: join(estate.dir, 'report', 'findings.json'),
      total_assets: 44,
      total_edges: 56,
      total_findings: 12,
      open_findings: 11,
      unresolved_references: 0,
      has_organization: false,
      internet_exposed: 6,
      cross_account_edges: 3,
    });
    expect(ws.listDatasets()).toMatchObject({
      active_dataset: 'sample',
      total: 2,
      datasets: [
        { name: 'sample', active: true, assets: 44, edges: 56, findings: 12, compliance_results: 8 },
        { name: 'report', active: false, kind: 'report' },
      ],
    });
  });

  it('names a dataset after the directory of an inventory map and after the file stem otherwise, made unique', async () => {
    expect((await ws.load('inventory')).name).toBe('inventory');
    expect((await ws.load('inventory/inventory-map.json')).name).toBe('inventory-2');
    expect((await ws.load('report/findings.json')).name).toBe('findings');
    expect((await ws.load('scans/trivy.json')).name).toBe('trivy');
  });
});

describe('dataset names', () => {
  it('refuses a taken name before reading, with a free name in the data', async () => {
    await ws.load('inventory', { name: 'sample' });
    const attempt = ws.load('report/findings.json', { name: 'sample' });
    await expect(attempt).rejects.toBeInstanceOf(DatasetExistsError);
    await expect(attempt).rejects.toMatchObject({
      code: -32602,
      message:
        'A dataset with that name already exists. Choose another name (the error data suggests a free one), or pass replace=true to overwrite it.',
      data: { existing: 'sample', suggested: 'sample-2' },
    });
    expect(ws.get('sample').kind).toBe('inventory');
  });

  it('overwrites with replace', async () => {
    await ws.load('inventory', { name: 'sample' });
    await ws.load('report/findings.json', { name: 'sample', replace: true });
    expect(ws.get('sample').kind).toBe('report');
    expect(ws.size).toBe(1);
  });

  it('refuses names outside ^[A-Za-z0-9_.-]{1,64}$ without echoing them', () => {
    for (const bad of ['', 'has space', 'a/b', 'x'.repeat(65)]) {
      expect(() => ws.checkName(bad)).toThrow(InvalidArgumentsError);
    }
    expect(() => ws.checkName('a/b')).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ value: 'a/b' }) }),
    );
    try {
      ws.checkName('secret name');
    } catch (e) {
      expect((e as Error).message).not.toContain('secret');
    }
    expect(() => ws.checkName(`ok_name.v-${'1'.repeat(54)}`)).not.toThrow();
  });
});

describe('the dataset argument', () => {
  it('says how to load something when nothing is loaded', () => {
    expect(() => ws.get()).toThrow(NoDatasetError);
    expect(() => ws.get()).toThrow(
      'No dataset is loaded. Call load_dataset(path=...) with an inventory-map.json / findings.json / scanner report, or map_inventory to collect live data.',
    );
  });

  it('lists the loaded datasets in the data for an unknown name, not in the message', async () => {
    await ws.load('inventory', { name: 'sample' });
    await ws.load('report/findings.json', { name: 'report' });
    let error: unknown;
    try {
      ws.get('prod');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NoDatasetError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      code: -32602,
      message:
        'No such dataset. 2 dataset(s) are loaded: they are listed with this error, or call list_datasets.',
      data: { value: 'prod', datasets: [{ dataset: 'sample' }, { dataset: 'report' }] },
    });
  });
});

describe('allowed roots', () => {
  it('refuses a path outside the roots with -31001, naming the roots but not the path', async () => {
    const attempt = ws.load('/etc/passwd');
    await expect(attempt).rejects.toBeInstanceOf(AccessDeniedError);
    await expect(attempt).rejects.toMatchObject({
      code: -31001,
      message: `The path is outside the allowed roots (${ws.allowedRoots.join(', ')}). Ask the operator to add its directory to the workspace's allowed roots.`,
      data: { path: '/etc/passwd' },
    });
    expect(ws.size).toBe(0);
  });

  it('reports a missing path inside the roots as invalid arguments, path in the data only', async () => {
    const attempt = ws.load('nope.json');
    await expect(attempt).rejects.toMatchObject({ code: -32602, data: { path: 'nope.json' } });
    await expect(attempt).rejects.not.toThrow(/nope/);
  });

  it('follows symlinks: a link inside a root pointing outside is refused', async () => {
    await symlink('/etc', join(estate.dir, 'etc-link'));
    expect(() => ws.checkPath('etc-link/hostname')).toThrow(AccessDeniedError);
    await expect(ws.load('etc-link/hostname')).rejects.toBeInstanceOf(AccessDeniedError);
  });

  it('takes CLOUDG_MCP_ALLOWED_ROOTS when no roots are passed', async () => {
    const { Workspace } = await import('./workspace.js');
    const other = new Workspace({
      env: { CLOUDG_MCP_ALLOWED_ROOTS: [join(estate.dir, 'report'), join(estate.dir, 'scans')].join(':') },
      cwd: estate.dir,
      outputDir: join(estate.dir, 'report', 'out'),
    });
    expect(other.allowedRoots).toEqual([join(estate.dir, 'report'), join(estate.dir, 'scans')]);
    await expect(other.load(join(estate.dir, 'inventory'))).rejects.toBeInstanceOf(AccessDeniedError);
    await expect(other.load(join(estate.dir, 'scans', 'trivy.json'))).resolves.toMatchObject({
      kind: 'trivy',
    });
  });

  it('resolves relative paths against the first root and refuses .. escapes', async () => {
    const two = workspaceAt(join(estate.dir, 'scans'), {
      allowedRoots: [join(estate.dir, 'scans'), join(estate.dir, 'report')],
    });
    expect(two.checkPath('trivy.json')).toBe(join(estate.dir, 'scans', 'trivy.json'));
    expect(two.checkPath(join(estate.dir, 'report', 'findings.json'))).toBe(
      join(estate.dir, 'report', 'findings.json'),
    );
    expect(() => two.checkPath('../inventory/inventory-map.json')).toThrow(AccessDeniedError);
    expect(() => ws.checkPath('../../../../etc/passwd')).toThrow(AccessDeniedError);
  });

  it('never defaults to / or the home directory, and refuses to start when nothing else is left', async () => {
    const { Workspace } = await import('./workspace.js');
    const { homedir } = await import('node:os');
    const home = realpathSync(homedir());
    expect(new Workspace({ cwd: homedir(), env: {} }).allowedRoots).toEqual([join(home, 'reports')]);
    expect(new Workspace({ cwd: '/', env: {}, outputDir: join(estate.dir, 'out') }).allowedRoots).toEqual([
      join(estate.dir, 'out'),
    ]);
    expect(() => new Workspace({ cwd: homedir(), env: {}, outputDir: '/' })).toThrow(WorkspaceConfigError);
    expect(() => new Workspace({ cwd: '/', env: {}, outputDir: homedir() })).toThrow(WorkspaceConfigError);
    expect(new Workspace({ cwd: estate.dir, env: {} }).allowedRoots).toEqual([estate.dir]);
  });

  it('adds the output directory to the roots when it is outside them', () => {
    const other = workspaceAt(join(estate.dir, 'inventory'), { outputDir: join(estate.dir, 'exports') });
    expect(other.allowedRoots).toEqual([join(estate.dir, 'inventory'), join(estate.dir, 'exports')]);
  });

  it('keeps writes under the output directory', () => {
    expect(ws.outputPath('reports/json')).toBe(join(estate.dir, 'out', 'reports', 'json'));
    expect(() => ws.outputPath('../escape')).toThrow(AccessDeniedError);
    expect(() => ws.outputPath('/tmp/x')).toThrow(AccessDeniedError);
  });

  it('lets the operator preload a dataset from anywhere', async () => {
    const narrow = workspaceAt(join(estate.dir, 'scans'));
    await expect(narrow.load(join(estate.dir, 'inventory'))).rejects.toBeInstanceOf(AccessDeniedError);
    const ds = await narrow.preload(join(estate.dir, 'inventory'), { name: 'sample' });
    expect(ds.assets).toHaveLength(44);
  });
});

describe('symlinks are judged by where they lead, for every file a load opens', () => {
  let outside: string;
  beforeEach(async () => {
    outside = realpathSync(await mkdtemp(join(tmpdir(), 'cloudg-outside-')));
    await copyFile(join(estate.dir, 'scans', 'trivy.json'), join(outside, 'trivy.json'));
    await copyFile(
      join(estate.dir, 'inventory', 'inventory-organization.json'),
      join(outside, 'inventory-organization.json'),
    );
  });
  afterEach(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  const refusedOutside = (path: string) => ({
    code: -31001,
    message: `The path is outside the allowed roots (${ws.allowedRoots.join(', ')}). Ask the operator to add its directory to the workspace's allowed roots.`,
    data: { path },
  });

  it('refuses a linked file pointing outside the roots found while loading a directory', async () => {
    await mkdir(join(estate.dir, 'linked'));
    await symlink(join(outside, 'trivy.json'), join(estate.dir, 'linked', 'trivy.json'));
    const attempt = ws.load('linked', { kind: 'trivy' });
    await expect(attempt).rejects.toBeInstanceOf(AccessDeniedError);
    await expect(attempt).rejects.toMatchObject(refusedOutside(join(estate.dir, 'linked', 'trivy.json')));
    expect(ws.size).toBe(0);
  });

  it('refuses an inventory map whose organization file links outside the roots', async () => {
    const org = join(estate.dir, 'inventory', 'inventory-organization.json');
    await rm(org);
    await symlink(join(outside, 'inventory-organization.json'), org);
    const attempt = ws.load('inventory');
    await expect(attempt).rejects.toMatchObject(refusedOutside(org));
    await expect(attempt).rejects.not.toThrow(outside);
    expect(ws.size).toBe(0);
  });

  it('refuses a linked file named directly, and still loads links that stay inside the roots', async () => {
    await symlink(join(outside, 'trivy.json'), join(estate.dir, 'away.json'));
    await expect(ws.load('away.json')).rejects.toMatchObject({ code: -31001, data: { path: 'away.json' } });
    await mkdir(join(estate.dir, 'linked'));
    await symlink(join(estate.dir, 'scans', 'trivy.json'), join(estate.dir, 'linked', 'trivy.json'));
    await expect(ws.load('linked', { kind: 'trivy' })).resolves.toMatchObject({ kind: 'trivy' });
  });
});

describe("the server's own files (protectedPaths)", () => {
  let audit: string;
  beforeEach(async () => {
    audit = join(estate.dir, 'scans', 'audit.jsonl');
    await writeFile(
      audit,
      `${JSON.stringify({ event: 'mcp.call', kind: 'tool', name: 'find_assets', outcome: 'ok' })}\n`,
    );
  });

  const refusedOwn = (path: string) => ({
    code: -31001,
    message:
      'The file belongs to the server itself (its audit log or pseudonym vault) and cannot be read by tools. Load a dataset from another file.',
    data: { path },
  });

  it('refuses the audit log and the vault by any name: directly, through a link or a hard link', async () => {
    const vault = join(estate.dir, 'vault.json');
    await writeFile(vault, '{"format": "cloudg-vault/1"}');
    const own = workspaceAt(estate.dir, { protectedPaths: [audit, vault] });
    await symlink(audit, join(estate.dir, 'innocent.jsonl'));
    await link(vault, join(estate.dir, 'copy.json'));
    for (const path of ['scans/audit.jsonl', audit, 'innocent.jsonl', 'vault.json']) {
      const attempt = own.load(path, { kind: 'prowler' });
      await expect(attempt, path).rejects.toMatchObject(refusedOwn(path));
      await expect(attempt).rejects.not.toThrow(/audit\.jsonl|vault\.json|innocent|scans/);
    }
    // A hard link has a path of its own: the file is recognised once it is open.
    await expect(own.load('copy.json', { kind: 'generic' })).rejects.toMatchObject(
      refusedOwn(join(estate.dir, 'copy.json')),
    );
    expect(own.size).toBe(0);
  });

  it('refuses a directory load that would read the audit log among its files', async () => {
    const own = workspaceAt(estate.dir, { protectedPaths: [audit] });
    await expect(own.load('scans', { kind: 'prowler' })).rejects.toMatchObject(refusedOwn(audit));
  });

  it('refuses them to the operator too, and protects files added later with protect()', async () => {
    const own = workspaceAt(join(estate.dir, 'inventory'));
    own.protect(audit);
    await expect(own.preload(audit)).rejects.toMatchObject({ code: -31001 });
    // A vault that does not exist yet is refused once it is written.
    const later = join(estate.dir, 'later-vault.json');
    own.protect(later);
    await writeFile(later, '[]');
    await expect(own.preload(later, { kind: 'generic' })).rejects.toMatchObject({ code: -31001 });
    await expect(own.preload(join(estate.dir, 'scans', 'trivy.json'))).resolves.toMatchObject({
      kind: 'trivy',
    });
  });
});

describe('failures leave the workspace as it was', () => {
  it('a malformed file replacing the active dataset changes nothing', async () => {
    await ws.load('inventory', { name: 'sample' });
    await ws.load('report/findings.json', { name: 'report', activate: false });
    await writeFile(join(estate.dir, 'broken.json'), '{"assets": [ {"id": "secret-value-123"');
    const events: unknown[] = [];
    ws.onChange((kind, uri) => events.push([kind, uri]));
    const attempt = ws.load('broken.json', { name: 'sample', replace: true });
    await expect(attempt).rejects.toMatchObject({
      code: -32602,
      data: { path: join(estate.dir, 'broken.json') },
    });
    await expect(attempt).rejects.not.toThrow(/secret-value|broken/);
    expect(ws.names()).toEqual(['sample', 'report']);
    expect(ws.activeName).toBe('sample');
    expect(ws.get('sample').kind).toBe('inventory');
    expect(events).toEqual([]);
  });

  it('a file over the size cap is refused before it is read', async () => {
    const small = workspaceAt(estate.dir, { maxFileBytes: 1024 });
    const attempt = small.load('inventory');
    await expect(attempt).rejects.toMatchObject({ code: -32602, data: { max_bytes: 1024 } });
    await expect(attempt).rejects.toThrow(/larger than the loader's limit of 1024 bytes/);
    expect(small.size).toBe(0);
  });

  it('content that matches no loader asks for an explicit kind', async () => {
    await writeFile(join(estate.dir, 'odd.json'), '{"hello": "world"}');
    await expect(ws.load('odd.json')).rejects.toMatchObject({
      message:
        'Could not tell what the file holds. Pass kind explicitly, one of: inventory, report, generic, prowler, scoutsuite, checkov, trivy.',
      data: { valid: ['inventory', 'report', 'generic', 'prowler', 'scoutsuite', 'checkov', 'trivy'] },
    });
    await mkdir(join(estate.dir, 'empty'));
    await expect(ws.load('empty')).rejects.toThrow(/Pass kind explicitly/);
  });
});

describe('active dataset, eviction, removal', () => {
  it('keeps at most maxDatasets, evicting the oldest inactive one', async () => {
    const small = workspaceAt(estate.dir, { maxDatasets: 3 });
    await small.load('inventory', { name: 'a' });
    await small.select('a');
    await small.load('report/findings.json', { name: 'b', activate: false });
    await small.load('report/findings.json', { name: 'c', activate: false });
    await small.load('report/findings.json', { name: 'd', activate: false });
    expect(small.names()).toEqual(['a', 'c', 'd']);
    expect(small.activeName).toBe('a');
  });

  it('defaults to 16 datasets', async () => {
    for (let i = 0; i < 17; i += 1) await ws.load('scans/trivy.json', { name: `t${i}` });
    expect(ws.size).toBe(16);
    expect(ws.has('t0')).toBe(false);
    expect(ws.activeName).toBe('t16');
  });

  it('hands the active role to the most recently added dataset on removal', async () => {
    await ws.load('inventory', { name: 'sample' });
    await ws.load('report/findings.json', { name: 'report' });
    await ws.load('after', { name: 'after', activate: false });
    ws.remove('report');
    expect(ws.activeName).toBe('after');
    expect(ws.names()).toEqual(['sample', 'after']);
    ws.remove('after');
    ws.remove('sample');
    expect(ws.activeName).toBeNull();
  });
});

describe('change events', () => {
  it('sends the list change and three resource updates on load', async () => {
    const events: [string, string | undefined][] = [];
    ws.onChange((kind, uri) => events.push([kind, uri]));
    await ws.load('inventory', { name: 'prod' });
    expect(events).toEqual([
      ['resources', undefined],
      ['resource', 'cloudg://workspace'],
      ['resource', 'cloudg://datasets'],
      ['resource', 'cloudg://datasets/prod/summary'],
    ]);
  });

  it('sends the three resource updates on select and mutation, and the list change plus two on remove', async () => {
    await ws.load('inventory', { name: 'prod' });
    const events: [string, string | undefined][] = [];
    const stop = ws.onChange((kind, uri) => events.push([kind, uri]));
    ws.select('prod');
    const three = [
      ['resource', 'cloudg://workspace'],
      ['resource', 'cloudg://datasets'],
      ['resource', 'cloudg://datasets/prod/summary'],
    ];
    expect(events).toEqual(three);
    events.length = 0;
    const ds = ws.get('prod');
    ws.mutated(ds);
    expect(ds.version).toBe(1);
    expect(events).toEqual(three);
    events.length = 0;
    ws.remove('prod');
    expect(events).toEqual([
      ['resources', undefined],
      ['resource', 'cloudg://workspace'],
      ['resource', 'cloudg://datasets'],
    ]);
    stop();
    await ws.load('inventory', { name: 'again' });
    expect(events).toHaveLength(3);
  });
});

describe('status', () => {
  it('suggests next steps while empty', () => {
    expect(ws.status()).toEqual({
      active_dataset: null,
      datasets: [],
      allowed_roots: [estate.dir],
      output_dir: join(estate.dir, 'out'),
      providers_configured: ['aws'],
      next_steps: [
        "load_dataset(path='<dir with inventory-map.json or findings.json>')",
        "map_inventory(providers=['aws']) to collect live data (needs credentials)",
      ],
    });
  });

  it('lists datasets with their cache flags once loaded', async () => {
    await ws.load('inventory', { name: 'sample' });
    const status = ws.status();
    expect(status.next_steps).toBeUndefined();
    expect(status.datasets[0]).toMatchObject({
      name: 'sample',
      kind: 'inventory',
      version: 0,
      providers: ['aws', 'azure', 'gcp'],
      assets: 44,
      edges: 56,
      findings: 12,
      compliance_results: 8,
      cached: {
        graph: false,
        dependency_graph: false,
        ontology: false,
        centrality: false,
        rag_entity: false,
      },
    });
    expect(status.datasets[0]?.loaded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
  });
});
