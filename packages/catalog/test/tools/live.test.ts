import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Layer, Principal } from '@cloudg/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  restoreLiveDatasets,
  sampleEstateDir,
  Workspace,
} from '../../src/index.js';
import { FakeClock } from '../live/fake-clock.js';
import { SampleEngine } from '../live/sample-engine.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00', AWS_SECRET_ACCESS_KEY: 'example', PATH: '' };
const admin = new Principal({ id: 'ops', roles: ['admin'] });

let dir: string;
let engine: SampleEngine;
let clock: FakeClock;
let ws: Workspace;
let layer: Layer<Workspace>;

function newWorkspace(): Workspace {
  return new Workspace({ allowedRoots: [sampleEstateDir(), dir], outputDir: join(dir, 'out'), cwd: dir });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-live-'));
  engine = new SampleEngine();
  clock = new FakeClock();
  ws = newWorkspace();
  await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  configureLive(ws, {
    clock,
    persist: true,
    preflight: { env: CREDENTIALS, homeDir: dir, probe: async () => null },
  });
  layer = createCatalogLayer({ workspace: ws, registry: defaultRegistry({ live: { engine } }) });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function callWithProgress(name: string, args: Record<string, unknown>, principal?: Principal) {
  const progress: [number, number | undefined, string | undefined][] = [];
  const result = await layer.callTool(name, args, {
    ...(principal ? { principal } : {}),
    onProgress: (p, t, m) => {
      progress.push([p, t, m]);
    },
  });
  return { result, progress, structured: result.structured as Record<string, unknown> };
}

function errorOf(result: Awaited<ReturnType<Layer<Workspace>['callTool']>>) {
  const first = result.content[0];
  return {
    text: first && first.type === 'text' ? first.text : '',
    code: result.meta['cloudg/error_code'],
    data: result.meta['cloudg/error_data'] as Record<string, unknown> | undefined,
  };
}

describe('map_inventory', () => {
  it('collects through the engine into a new active live dataset, with the documented result, links and progress', async () => {
    const { result, progress, structured } = await callWithProgress('map_inventory', {
      providers: ['aws'],
      regions: ['us-east-1'],
      name: 'live-aws',
    });
    expect(result.isError).toBe(false);
    expect(structured).toMatchObject({
      dataset: 'live-aws',
      active: true,
      tool: 'map_inventory',
      summary: {
        total_assets: 44,
        total_edges: 56,
        total_findings: 0,
        open_findings: 0,
        accounts: 5,
        regions: 5,
      },
      collection_failures: [{ service: 'rds', error: 'AccessDenied: rds:DescribeDBInstances' }],
      errors: ['inventory_mapping: aws:rds: AccessDenied'],
      next_steps: ['dataset_summary', 'find_assets', 'top_risks', 'attack_paths'],
      // The engine reported one throttled EC2 call: the result says so.
      throttling: { totals: { throttled: 1, wait_seconds: 0.5 }, scopes: { aws: { throttled: 1 } } },
    });
    expect(progress).toEqual([
      [0.5, 2, 'mapping inventory'],
      [1, 2, 'phase: inventory_mapping'],
      [2, 2, 'done'],
    ]);
    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links.map((l) => (l as { uri: string }).uri)).toEqual([
      'cloudg://datasets/live-aws/summary',
      'cloudg://workspace',
    ]);
    expect(ws.activeName).toBe('live-aws');
    expect(ws.get('live-aws').kind).toBe('live');
    // The engine got the call's regions on a copy; the server's config is unchanged.
    expect(engine.calls[0]?.request.config.aws.regions).toEqual(['us-east-1']);
    expect(ws.config.aws.regions).toEqual([]);
  });

  it('refuses bad arguments, names and force before creating any engine run', async () => {
    const bad = errorOf((await callWithProgress('map_inventory', { providers: ['oracle'] })).result);
    expect(bad).toMatchObject({ text: 'Unknown provider(s). Use aws, azure, gcp.', code: -32602 });
    const name = errorOf((await callWithProgress('map_inventory', { name: 'my dataset' })).result);
    expect(name.code).toBe(-32602);
    expect(name.text).toMatch(/^Invalid dataset name/);
    const clash = errorOf(
      (await callWithProgress('map_inventory', { providers: ['aws'], name: 'sample', force: true })).result,
    );
    expect(clash).toMatchObject({ code: -32602, data: { existing: 'sample', suggested: 'sample-2' } });
    const force = errorOf(
      (await callWithProgress('map_inventory', { providers: ['aws'], force: true })).result,
    );
    expect(force).toMatchObject({
      code: -31001,
      text: 'force=true (skip the live cooldown) needs the admin or operator role. Use the dataset from the last collection, or wait for the cooldown to end.',
    });
    expect(engine.calls).toHaveLength(0);
  });

  it('fails the preflight without credentials, naming the provider, before the engine', async () => {
    configureLive(ws, { preflight: { env: { PATH: '' } } });
    const e = errorOf((await callWithProgress('map_inventory', { providers: ['aws'] })).result);
    const reason =
      "no credentials found (set aws.profile / access keys in the cloudg config, AWS_PROFILE / AWS_ACCESS_KEY_ID in the server's environment, or run on a host with an instance role)";
    expect(e.code).toBe(-32603);
    expect(e.data).toEqual({ providers: { aws: reason } });
    expect(e.text).toBe(
      `Cannot collect live data. aws: ${reason}. Fix the server's credentials, choose other providers, or work offline with load_dataset. Pass preflight=false to skip this check.`,
    );
    expect(engine.calls).toHaveLength(0);
    // preflight=false skips it.
    expect(
      (await callWithProgress('map_inventory', { providers: ['aws'], preflight: false })).result.isError,
    ).toBe(false);
  });

  it('a second call on the same scope is refused during the cooldown with use_dataset; force with the admin role runs', async () => {
    await callWithProgress('map_inventory', { providers: ['aws'], name: 'live-aws' });
    const e = errorOf(
      (await callWithProgress('map_inventory', { providers: ['aws'], name: 'live-aws-2' })).result,
    );
    expect(e.code).toBe(-31029);
    expect(e.data).toEqual({
      reason: 'cooldown',
      message: 'live collection of aws ran recently; cooling down, retry in 120s or use the cached dataset',
      retry_after_seconds: 120,
      scopes: ['aws'],
      caller: 'local',
      use_dataset: 'live-aws',
    });
    expect(e.text).toContain('query it instead of collecting again');
    const status = (await callWithProgress('rate_limit_status', {})).structured;
    expect(status).toMatchObject({
      live_guard: { in_flight: 0, active_total: 0, cooling_down: { aws: 120 }, started: 1, joined: 0 },
      throttling: { totals: { throttled: 1, wait_seconds: 0.5 } },
    });
    const [resource] = await layer.readResource('cloudg://ratelimit');
    expect(JSON.parse((resource as { text: string }).text)).toMatchObject({
      live_guard: { cooling_down: { aws: 120 } },
    });
    const forced = await callWithProgress(
      'map_inventory',
      { providers: ['aws'], name: 'live-aws-2', force: true },
      admin,
    );
    expect(forced.result.isError).toBe(false);
    clock.advance(120_000);
    expect(
      (await callWithProgress('collect_assets', { providers: ['aws'], name: 'later' })).result.isError,
    ).toBe(false);
  });

  it('two identical calls share one engine run; a different operation on the busy scope is refused', async () => {
    engine.hold = true;
    const first = callWithProgress('map_inventory', { providers: ['gcp'], name: 'shared', preflight: false });
    await new Promise((r) => setTimeout(r, 20));
    const second = callWithProgress('map_inventory', { providers: ['gcp'], preflight: false });
    await new Promise((r) => setTimeout(r, 20));
    const busy = errorOf(
      (await callWithProgress('collect_assets', { providers: ['gcp'], name: 'busy-try', preflight: false }))
        .result,
    );
    expect(busy).toMatchObject({ code: -31029, data: { reason: 'busy', scopes: ['gcp'], caller: 'local' } });
    engine.release();
    const [a, b] = await Promise.all([first, second]);
    expect(engine.calls).toHaveLength(1);
    expect(a.structured.dataset).toBe('shared');
    expect(b.structured).toMatchObject({ dataset: 'shared', joined: true });
    expect(b.structured.note).toMatch(/already running/);
  });

  it('cancelling the call aborts the engine and frees the scope', async () => {
    engine.hold = true;
    const controller = new AbortController();
    const pending = layer.callTool('collect_assets', { providers: ['aws'] }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await pending.catch(() => undefined);
    expect(engine.lastSignal?.aborted).toBe(true);
    expect(ws.names()).toEqual(['sample']);
  });

  it('a live dataset is saved under the output directory and comes back after a restart', async () => {
    await callWithProgress('collect_assets', { providers: ['aws'], name: 'kept' });
    const restarted = newWorkspace();
    const outcome = await restoreLiveDatasets(restarted);
    expect(outcome).toEqual({ restored: ['kept'], skipped: [] });
    expect(restarted.get('kept').kind).toBe('live');
    expect(restarted.get('kept').assets).toHaveLength(44);
  });

  it('without persist nothing is written, and no tool can read a saved collection back', async () => {
    await callWithProgress('collect_assets', { providers: ['aws'], name: 'kept' });
    const saved = join(dir, 'out', 'live', 'kept.json');
    const load = errorOf((await callWithProgress('load_dataset', { path: saved, name: 'raw' })).result);
    expect(load.code).toBe(-31001);
    configureLive(ws, { persist: false });
    clock.advance(120_000);
    await callWithProgress('collect_assets', { providers: ['aws'], name: 'transient' });
    expect((await restoreLiveDatasets(newWorkspace())).restored).toEqual(['kept']);
  });

  it('findings run_scanners adds to a live dataset are saved with it', async () => {
    await callWithProgress('collect_assets', { providers: ['aws'], name: 'kept' });
    const scanned = await callWithProgress('run_scanners', { scanners: ['iam'], dataset: 'kept' });
    expect(scanned.structured.errors).toEqual(['iam: no IAM policy documents in the dataset to check']);
    const added = scanned.structured.new_findings as number;
    expect(added).toBeGreaterThan(0);
    const restarted = newWorkspace();
    await restoreLiveDatasets(restarted);
    expect(restarted.get('kept').findings).toHaveLength(added);
  });
});

describe('run_pipeline', () => {
  it('collects, analyses, normalises and writes findings.json, with progress through the six steps', async () => {
    const { result, progress, structured } = await callWithProgress('run_pipeline', {
      providers: ['aws'],
      subdir: 'pipeline',
      name: 'full',
    });
    expect(result.isError).toBe(false);
    const json = join(dir, 'out', 'pipeline', 'findings.json');
    expect(structured).toMatchObject({
      dataset: 'full',
      active: true,
      tool: 'run_pipeline',
      report_paths: { json },
    });
    expect(structured.attack_paths_found).toBeGreaterThan(0);
    // The catalog's reachability findings were added to the collected estate.
    expect((structured.summary as { total_findings: number }).total_findings).toBeGreaterThan(0);
    expect(ws.get('full').findings.every((f) => f.source_tool === 'cloudg-reachability')).toBe(true);
    expect(JSON.parse(await readFile(json, 'utf8')).findings).toHaveLength(ws.get('full').findings.length);
    expect(progress.map(([p, t, m]) => [p, t, m])).toEqual([
      [1, 6, 'phase: collection'],
      [2, 6, 'phase: scanning'],
      [3, 6, 'phase: analysis'],
      [4, 6, 'phase: normalisation'],
      [5, 6, 'phase: reporting'],
      [6, 6, 'done'],
    ]);
  });

  it('adds the IAM linter findings of the collected policy documents', async () => {
    engine.extraAssets = [
      {
        id: 'pol-admin',
        arn: 'arn:aws:iam::123456789012:policy/admin-all',
        name: 'admin-all',
        asset_type: 'IAM_POLICY',
        provider: 'AWS',
        region: 'global',
        account_id: '123456789012',
        tags: {},
        metadata: { policy_document: { Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } },
        collected_at: '2026-01-15T12:00:00',
        is_internet_exposed: false,
      },
    ];
    const { result } = await callWithProgress('run_pipeline', { providers: ['aws'], subdir: 'pipeline' });
    expect(result.isError).toBe(false);
    const iam = ws.get(ws.activeName as string).findings.filter((f) => f.source_tool === 'cloudg-iam');
    expect(iam.map((f) => [f.title, f.severity])).toEqual([
      ['IAM policy allows every action: admin-all', 'HIGH'],
    ]);
  });

  it("runs the engine's optional scan and report phases and keeps their results", async () => {
    const scanned = Object.assign(engine, {
      scan: async () => [
        {
          id: 'engine-scan-1',
          title: 'Bucket without encryption',
          severity: 'HIGH',
          source_tool: 'prowler',
          resource_id: 'prod-logs',
        },
      ],
      report: async () => ({ html: join(dir, 'out', 'pipeline', 'report.html') }),
    });
    const withScan = createCatalogLayer({
      workspace: ws,
      registry: defaultRegistry({ live: { engine: scanned as never } }),
    });
    const result = await withScan.callTool('run_pipeline', { providers: ['aws'], name: 'scanned' });
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    expect(ws.get('scanned').findings.some((f) => f.title === 'Bucket without encryption')).toBe(true);
    expect((result.structured as { report_paths: Record<string, string> }).report_paths).toMatchObject({
      html: join(dir, 'out', 'pipeline', 'report.html'),
    });
  });

  it('an engine answering outside the inventory model gets a clear error and adds nothing', async () => {
    const broken = {
      mapInventory: async () => ({ assets: [{ name: 'no id or type' }] }),
      collect: async () => ({}),
    };
    const layer2 = createCatalogLayer({
      workspace: ws,
      registry: defaultRegistry({ live: { engine: broken as never } }),
    });
    const e = errorOf(await layer2.callTool('map_inventory', { providers: ['aws'], name: 'broken' }));
    expect(e.code).toBe(-32603);
    expect(e.text).toMatch(
      /^The collection engine's map_inventory result does not match the inventory model/,
    );
    expect((e.data as { problems: unknown[] }).problems.length).toBeGreaterThan(0);
    expect(ws.has('broken')).toBe(false);
  });

  it('refuses a subdir that escapes the output directory before any engine run', async () => {
    const e = errorOf((await callWithProgress('run_pipeline', { subdir: '../../x' })).result);
    expect(e.code).toBe(-31001);
    expect(engine.calls).toHaveLength(0);
  });
});

describe('registration', () => {
  it('without an engine only run_scanners and rate_limit_status of the live tools exist', () => {
    const names = [...defaultRegistry().tools.keys()].filter((n) =>
      ['map_inventory', 'collect_assets', 'run_scanners', 'rate_limit_status'].includes(n),
    );
    expect(names).toEqual(['run_scanners', 'rate_limit_status']);
  });

  it('with an engine all five are registered, in catalog order', () => {
    const names = [...defaultRegistry({ live: { engine: new SampleEngine() } }).tools.keys()].filter((n) =>
      ['map_inventory', 'collect_assets', 'run_scanners', 'run_pipeline', 'rate_limit_status'].includes(n),
    );
    expect(names).toEqual([
      'map_inventory',
      'collect_assets',
      'run_scanners',
      'run_pipeline',
      'rate_limit_status',
    ]);
  });
});
