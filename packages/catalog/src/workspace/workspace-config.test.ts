/** @isolated it points process.env.HOME elsewhere for a while. */
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCloudgConfig, parseCloudgConfig } from '../config/load.js';
import { createCatalogLayer } from '../registry.js';
import { Workspace } from './workspace.js';

/** A fresh directory, through realpath (macOS tmp is a symlink). */
const fresh = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

describe('the workspace and the cloudg config', () => {
  it('uses the default config without one, and keeps the one it is given', () => {
    const cwd = fresh('cloudg-cwd-');
    expect(new Workspace({ cwd, env: {} }).config).toEqual(defaultCloudgConfig());
    const config = parseCloudgConfig({ providers: ['azure'] });
    expect(new Workspace({ cwd, env: {}, config }).config).toBe(config);
  });

  it('writes reports to the configured report directory unless outputDir is passed', () => {
    const cwd = fresh('cloudg-cwd-');
    const reports = fresh('cloudg-reports-');
    const config = parseCloudgConfig({ report: { output_dir: reports } });
    expect(new Workspace({ cwd, env: {} }).outputDir).toBe(join(cwd, 'reports'));
    expect(new Workspace({ cwd, env: {}, config }).outputDir).toBe(reports);
    expect(new Workspace({ cwd, env: {}, config, outputDir: 'mine' }).outputDir).toBe(join(cwd, 'mine'));
  });

  it('reports the configured providers unless providersConfigured is passed', () => {
    const config = parseCloudgConfig({ providers: ['gcp', 'azure'] });
    const cwd = fresh('cloudg-cwd-');
    expect(new Workspace({ cwd, env: {}, config }).providersConfigured).toEqual(['gcp', 'azure']);
    expect(new Workspace({ cwd, env: {}, config, providersConfigured: ['aws'] }).providersConfigured).toEqual(
      ['aws'],
    );
  });

  it('allows the working directory plus the configured report directory by default', () => {
    const cwd = fresh('cloudg-cwd-');
    const reports = fresh('cloudg-reports-');
    const config = parseCloudgConfig({ report: { output_dir: reports } });
    expect(new Workspace({ cwd, env: {}, config }).allowedRoots).toEqual([cwd, reports]);
    // A report directory under the working directory adds no second root.
    const inside = parseCloudgConfig({ report: { output_dir: 'out' } }, { baseDir: cwd });
    expect(new Workspace({ cwd, env: {}, config: inside }).allowedRoots).toEqual([cwd]);
    // CLOUDG_MCP_ALLOWED_ROOTS replaces the default; the report directory is still added.
    const other = fresh('cloudg-other-');
    const env = { CLOUDG_MCP_ALLOWED_ROOTS: [other].join(delimiter) };
    expect(new Workspace({ cwd, env, config }).allowedRoots).toEqual([other, reports]);
  });

  it('never adds / or the home directory as a root because the report directory is there', () => {
    const cwd = fresh('cloudg-cwd-');
    const config = parseCloudgConfig({ report: { output_dir: '~' } });
    const ws = new Workspace({ cwd, env: {}, config });
    expect(ws.outputDir).toBe(realpathSync(homedir()));
    expect(ws.allowedRoots).toEqual([cwd]);
    expect(new Workspace({ cwd, allowedRoots: [cwd], outputDir: '/' }).allowedRoots).toEqual([cwd]);
  });
});

describe('default roots never open the home directory from above', () => {
  it('leaves out a directory that contains the home directory, not just the home directory itself', () => {
    const base = fresh('cloudg-home-');
    const home = join(base, 'home', 'ann');
    mkdirSync(home, { recursive: true });
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const out = fresh('cloudg-out-');
      // Launched from /home (an ancestor of ~ann): only the report directory is a root.
      expect(new Workspace({ cwd: join(base, 'home'), env: {}, outputDir: out }).allowedRoots).toEqual([
        realpathSync(out),
      ]);
      // A report directory above home is not added either.
      const cwd = fresh('cloudg-cwd-');
      expect(new Workspace({ cwd, env: {}, outputDir: base }).allowedRoots).toEqual([realpathSync(cwd)]);
    } finally {
      process.env.HOME = saved;
    }
  });
});

describe('workspace_status with a config', () => {
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

  async function status() {
    const cwd = fresh('cloudg-cwd-');
    const reports = fresh('cloudg-reports-');
    const config = parseCloudgConfig({
      providers: ['aws', 'azure'],
      report: { output_dir: reports },
      aws: { access_key_id: 'AKIAABCDEFGHIJKLMNOP', secret_access_key: secret },
      azure: {
        tenant_id: 'contoso.onmicrosoft.com',
        client_id: '00000000-0000-0000-0000-000000000001',
        client_secret: 'azure-client-secret-value',
      },
    });
    const layer = createCatalogLayer({ workspace: new Workspace({ cwd, env: {}, config }) });
    const tool = await layer.callTool('workspace_status', {});
    const [resource] = await layer.readResource('cloudg://workspace');
    return { cwd, reports, tool, resource: resource as { text: string } };
  }

  it('shows the configured providers, report directory and roots', async () => {
    const { cwd, reports, tool, resource } = await status();
    expect(tool.structured).toMatchObject({
      providers_configured: ['aws', 'azure'],
      output_dir: reports,
      allowed_roots: [cwd, reports],
    });
    expect((tool.structured as { next_steps: string[] }).next_steps[1]).toContain(
      "providers=['aws', 'azure']",
    );
    expect(JSON.parse(resource.text)).toMatchObject({
      providers_configured: ['aws', 'azure'],
      output_dir: reports,
    });
  });

  it('shows no credential from the config', async () => {
    const { tool, resource } = await status();
    for (const text of [JSON.stringify(tool.toWire()), resource.text]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('azure-client-secret-value');
      expect(text).not.toContain('AKIAABCDEFGHIJKLMNOP');
    }
  });
});
