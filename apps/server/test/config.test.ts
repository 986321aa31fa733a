import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudgConfigError, parseCloudgConfig, sampleEstateDir, Workspace } from '@cloudg/catalog';
import { describe, expect, it } from 'vitest';
import { createLayerFromOptions } from '../src/index.js';

const fresh = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

describe('createLayerFromOptions with a cloudg config', () => {
  it('loads a config path relative to cwd and hands it to the workspace', async () => {
    const cwd = fresh('cloudg-server-');
    writeFileSync(join(cwd, 'config.yaml'), 'providers: [azure, gcp]\nreport:\n  output_dir: exports\n');
    const server = await createLayerFromOptions({ policy: 'open', cwd, config: 'config.yaml' });
    expect(server.workspace.config.providers).toEqual(['azure', 'gcp']);
    const status = await server.layer.callTool('workspace_status', {});
    expect(status.structured).toMatchObject({
      providers_configured: ['azure', 'gcp'],
      output_dir: join(cwd, 'exports'),
    });
    server.close();
  });

  it('takes a parsed config, with an explicit outputDir winning over report.output_dir', async () => {
    const cwd = fresh('cloudg-server-');
    const config = parseCloudgConfig({ report: { output_dir: join(cwd, 'from-config') } });
    const server = await createLayerFromOptions({
      policy: 'open',
      cwd,
      config,
      outputDir: join(cwd, 'explicit'),
    });
    expect(server.workspace.config).toBe(config);
    expect(server.workspace.outputDir).toBe(join(cwd, 'explicit'));
    server.close();
  });

  it('keeps suppressions across servers with a state directory (state.dir, or stateDir winning over it)', async () => {
    const cwd = fresh('cloudg-server-');
    writeFileSync(join(cwd, 'config.yaml'), 'state:\n  dir: triage\n');
    const sample = `sample=${join(sampleEstateDir(), 'inventory')}`;
    const first = await createLayerFromOptions({
      policy: 'open',
      cwd,
      config: 'config.yaml',
      datasets: [sample],
    });
    expect(first.workspace.suppressions.path).toBe(join(cwd, 'triage', 'suppressions.json'));
    await first.layer.callTool('suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket deleted' });
    first.close();
    const second = await createLayerFromOptions({
      policy: 'open',
      cwd,
      config: 'config.yaml',
      datasets: [sample],
    });
    const finding = await second.layer.callTool('get_finding', { finding_id: 'f-ghost' });
    expect(finding.structured).toMatchObject({ is_suppressed: true, suppression_reason: 'bucket deleted' });
    second.close();
    const explicit = await createLayerFromOptions({
      policy: 'open',
      cwd,
      config: 'config.yaml',
      stateDir: 'elsewhere',
    });
    expect(explicit.workspace.suppressions.path).toBe(join(cwd, 'elsewhere', 'suppressions.json'));
    explicit.close();
  });

  it('refuses a bad config file before building anything', async () => {
    const cwd = fresh('cloudg-server-');
    writeFileSync(join(cwd, 'config.yaml'), 'aws:\n  regions: eu-west-1\n');
    const attempt = createLayerFromOptions({ policy: 'open', cwd, config: 'config.yaml' });
    await expect(attempt).rejects.toBeInstanceOf(CloudgConfigError);
    await expect(attempt).rejects.toMatchObject({
      code: 'invalid_config',
      data: { problems: [{ path: 'aws.regions', message: 'expected a list' }] },
    });
    await expect(createLayerFromOptions({ cwd, config: 'missing.yaml' })).rejects.toMatchObject({
      code: 'config_not_found',
    });
  });

  it('leaves a workspace the caller built alone', async () => {
    const cwd = fresh('cloudg-server-');
    const workspace = new Workspace({ cwd, env: {} });
    const server = await createLayerFromOptions({
      policy: 'open',
      workspace,
      config: parseCloudgConfig({ providers: ['gcp'] }),
    });
    expect(server.workspace).toBe(workspace);
    expect(server.workspace.providersConfigured).toEqual(['aws']);
    server.close();
  });
});
