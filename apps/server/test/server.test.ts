import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Registry } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import {
  checkServeOptions,
  createLayerFromOptions,
  parseDatasetSpec,
  readOnlyRegistry,
  resolveFlavor,
  ServeOptionsError,
  serve,
} from '../src/index.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');

describe('createLayerFromOptions', () => {
  it('preloads datasets outside the allowed roots, because the operator chose them', async () => {
    const roots = mkdtempSync(join(tmpdir(), 'cloudg-roots-'));
    const server = await createLayerFromOptions({
      policy: 'open',
      datasets: [`prod=${MAP}`],
      allowedRoots: [roots],
    });
    expect(server.workspace.names()).toEqual(['prod']);
    const status = await server.layer.callTool('workspace_status', {});
    expect(status.structured).toMatchObject({ active_dataset: 'prod' });
    // Tools, unlike the operator, stay inside the roots.
    const load = await server.layer.callTool('load_dataset', { path: MAP, name: 'again' });
    expect(load.isError).toBe(true);
    expect(load.meta['cloudg/error_code']).toBe(-31001);
  });

  it('refuses to load its own audit log and vault file, even inside an allowed root', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cloudg-own-')));
    const auditLog = join(dir, 'audit.jsonl');
    const vaultPath = join(dir, 'vault.json');
    const policyFile = join(dir, 'policy.json');
    writeFileSync(
      policyFile,
      JSON.stringify({ extends: 'open', vault: { key: 'test-key-123', path: vaultPath } }),
    );
    const server = await createLayerFromOptions({ policy: policyFile, auditLog, allowedRoots: [dir] });
    await server.layer.callTool('workspace_status', {});
    expect(server.policy.saveVault()).toBe(vaultPath);
    for (const [path, kind] of [
      ['audit.jsonl', 'prowler'],
      [auditLog, 'auto'],
      ['vault.json', 'generic'],
    ]) {
      const load = await server.layer.callTool('load_dataset', { path, kind });
      expect(load.isError, path).toBe(true);
      expect(load.meta['cloudg/error_code']).toBe(-31001);
      const text = JSON.stringify(load.content);
      expect(text).toMatch(/belongs to the server itself/);
      expect(text).not.toContain(dir);
      expect(text).not.toMatch(/audit\.jsonl|vault\.json/);
    }
    expect(server.workspace.size).toBe(0);
    server.close();
    // The operator's --dataset cannot name them either: the loader's refusal, named by the value.
    await expect(
      createLayerFromOptions({ policy: policyFile, auditLog, datasets: [`own=${auditLog}`] }),
    ).rejects.toMatchObject({ name: 'DatasetSpecError', value: `own=${auditLog}`, cause: { code: -31001 } });
  });

  it('writes one audit line per request, hashes shared with the decision log, URIs never in clear', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
    const auditLog = join(dir, 'audit.jsonl');
    const server = await createLayerFromOptions({
      policy: { extends: 'open', audit: true },
      datasets: [`prod=${MAP}`],
      auditLog,
    });
    const ref = 'arn:aws:organizations::111111111111:ou/o-sample/ou-work';
    const found = await server.layer.callTool('get_asset', { ref });
    expect(found.isError).toBe(false);
    await expect(server.layer.callTool('no_such_tool', { ref })).rejects.toThrow('Unknown tool');
    await server.layer.readResource(`cloudg://assets/${ref}`);
    await expect(server.layer.readResource(`cloudg://nowhere/${ref}`)).rejects.toThrow('Unknown resource');
    server.close();

    const text = readFileSync(auditLog, 'utf8');
    expect(text).not.toContain('111111111111');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => [l.kind, l.name, l.outcome])).toEqual([
      ['tool', 'get_asset', 'ok'],
      ['tool', 'no_such_tool', 'not_found'],
      ['resource', 'cloudg://assets/{+ref}', 'ok'],
      ['resource', '(unmatched uri)', 'not_found'],
    ]);
    const decision = server.policy.auditLog.find((e) => e.name === 'get_asset')?.arguments.ref;
    expect(decision).toMatch(/^[0-9a-f]{12}$/);
    const logged = (lines[0]?.argument_hashes ?? {}) as Record<string, string>;
    expect(logged.ref).toMatch(new RegExp(`^${decision}[0-9a-f]{4}$`));
    expect(lines[2]?.uri_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('names a dataset after the directory of an inventory map when no name is given', async () => {
    const server = await createLayerFromOptions({ policy: 'open', datasets: [MAP] });
    expect(server.workspace.names()).toEqual(['inventory']);
  });

  it('always has metrics and lists cloudg://metrics; adds audit, cache and concurrency when asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
    const auditLog = join(dir, 'logs', 'audit.jsonl');
    const server = await createLayerFromOptions({
      policy: 'open',
      datasets: [`prod=${MAP}`],
      auditLog,
      cacheTtl: 30,
      maxConcurrency: 4,
    });
    expect(server.layer.resourcesWire().map((r) => r.uri)).toContain('cloudg://metrics');
    expect(server.layer.middleware).toHaveLength(4);
    await server.layer.callTool('count_assets', { group_by: 'provider' });
    const again = await server.layer.callTool('count_assets', { group_by: 'provider' });
    expect(again.meta['cloudg/cache']).toBe('hit');
    const [metrics] = await server.layer.readResource('cloudg://metrics');
    expect(JSON.parse((metrics as { text: string }).text).calls).toBeGreaterThanOrEqual(2);
    expect(statSync(auditLog).mode & 0o777).toBe(0o600);
    server.close();
  });

  it('applies the read-only filter and the layer filters', async () => {
    const server = await createLayerFromOptions({
      policy: 'open',
      readOnly: true,
      includeCategories: ['workspace'],
    });
    const names = server.layer.listTools().map((t) => t.name);
    expect(names).toContain('load_dataset');
    expect(names.every((n) => server.layer.registry.tools.get(n)!.category === 'workspace')).toBe(true);
  });

  it('serves a custom registry', async () => {
    const registry = new Registry<never>();
    registry.tool({ name: 'hello', handler: () => ({ hi: true }) });
    const server = await createLayerFromOptions({ policy: 'open', registry: registry as never });
    expect((await server.layer.callTool('hello', {})).structured).toEqual({ hi: true });
  });
});

describe('readOnlyRegistry', () => {
  it('drops tools that write files, reach the cloud, run programs or are destructive', () => {
    const registry = new Registry();
    registry.tool({ name: 'read', handler: () => 1 });
    registry.tool({ name: 'state', capabilities: ['write_state'], handler: () => 1 });
    registry.tool({ name: 'files', capabilities: ['write_fs'], handler: () => 1 });
    registry.tool({ name: 'cloud', capabilities: ['cloud_access'], handler: () => 1 });
    registry.tool({ name: 'run', capabilities: ['exec'], handler: () => 1 });
    registry.tool({ name: 'wipe', destructive: true, handler: () => 1 });
    expect([...readOnlyRegistry(registry).tools.keys()]).toEqual(['read', 'state']);
  });
});

describe('parseDatasetSpec', () => {
  it('reads NAME=PATH and a bare PATH, resolving against the working directory', () => {
    expect(parseDatasetSpec('prod=inventory/inventory-map.json', '/srv')).toEqual({
      name: 'prod',
      path: '/srv/inventory/inventory-map.json',
    });
    expect(parseDatasetSpec('/data/a=b.json', '/srv')).toEqual({ name: undefined, path: '/data/a=b.json' });
    expect(() => parseDatasetSpec('  ')).toThrow('A dataset needs a path');
  });
});

describe('serve options', () => {
  it('selects the native flavor for auto, serves sdk, and refuses unknown names with the list', () => {
    expect(resolveFlavor('auto')).toBe('native');
    expect(resolveFlavor(undefined)).toBe('native');
    expect(resolveFlavor('SDK')).toBe('sdk');
    expect(resolveFlavor('fastmcp')).toBe('fastmcp');
    expect(() => resolveFlavor('teapot')).toThrow(ServeOptionsError);
    expect(() => resolveFlavor('teapot')).toThrow(
      "Unknown flavor 'teapot'; choose one of: auto, native, sdk, fastmcp",
    );
  });

  it('validates tokens and levels before anything starts', () => {
    expect(() => checkServeOptions({ transport: 'http', authTokens: ['env:NOT_SET_ANYWHERE_42'] })).toThrow(
      "Environment variable 'NOT_SET_ANYWHERE_42' for an auth token is empty",
    );
    expect(() => checkServeOptions({ logLevel: 'chatty' })).toThrow("Unknown log level 'chatty'");
    expect(checkServeOptions({ transport: 'http', authTokens: ['s3cret:analyst:alice'] }).auth).toBeDefined();
    // Tokens do not apply to stdio, but a bad spec stops it all the same.
    expect(checkServeOptions({ transport: 'stdio', authTokens: ['s3cret'] }).auth).toBeUndefined();
    for (const transport of ['stdio', undefined] as const) {
      expect(() => checkServeOptions({ transport, authTokens: ['env:NOT_SET_ANYWHERE_42:x'] })).toThrow(
        "Environment variable 'NOT_SET_ANYWHERE_42' for an auth token is empty",
      );
    }
  });
});

describe('serve over HTTP', () => {
  it('prints the start-up line, answers /healthz, and saves the vault when it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-vault-'));
    const vaultPath = join(dir, 'vault.json');
    const policyFile = join(dir, 'policy.json');
    writeFileSync(
      policyFile,
      JSON.stringify({ extends: 'strict', vault: { key: 'test-key-123', path: vaultPath } }),
    );
    const server = await createLayerFromOptions({ policy: policyFile, datasets: [`prod=${MAP}`] });
    const lines: string[] = [];
    const stop = new AbortController();
    let url = '';
    const done = serve(server, {
      transport: 'http',
      port: 0,
      signal: stop.signal,
      handleSignals: false,
      announce: (line) => lines.push(line),
      onListening: (address) => {
        url = address.url;
      },
    });
    await new Promise<void>((resolve) => {
      const tick = () => (url ? resolve() : setTimeout(tick, 10));
      tick();
    });
    expect(lines[0]).toMatch(
      /^cloudg MCP server \(native, http\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/,
    );
    const health = await fetch(new URL('/healthz', url));
    expect(health.status).toBe(200);
    // Issue a pseudonym so the vault has something to save.
    const found = await server.layer.callTool('find_assets', { limit: 1 });
    expect(found.isError).toBe(false);
    stop.abort();
    await done;
    expect(existsSync(vaultPath)).toBe(true);
    expect(statSync(vaultPath).mode & 0o777).toBe(0o600);
  });

  it('warns when bound beyond loopback without tokens', async () => {
    const server = await createLayerFromOptions({ policy: 'open', datasets: [`prod=${MAP}`] });
    const lines: string[] = [];
    const stop = new AbortController();
    const done = serve(server, {
      transport: 'http',
      host: '0.0.0.0',
      port: 0,
      signal: stop.signal,
      handleSignals: false,
      announce: (line) => lines.push(line),
      onListening: () => stop.abort(),
    });
    await done;
    expect(lines[0]).toMatch(/^Warning: listening on 0\.0\.0\.0 without --auth-token/);
    expect(lines[1]).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });
});
