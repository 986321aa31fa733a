import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { loadCloudgConfig } from '../src/config/load.js';
import { liveCooldownSeconds } from '../src/config/ratelimit.js';
import { Workspace } from '../src/workspace/workspace.js';

const README = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

it('loads the example config.yaml of the README with the results it states', () => {
  const section = readFileSync(README, 'utf8').split('## The cloudg config file')[1] ?? '';
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  expect(yaml).toBeDefined();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cloudg-readme-')));
  writeFileSync(join(dir, 'config.yaml'), yaml ?? '');
  const config = loadCloudgConfig(join(dir, 'config.yaml'));
  const ws = new Workspace({ config, cwd: dir, env: {} });
  expect(ws.outputDir).toBe(join(dir, 'reports'));
  expect(ws.status().providers_configured).toEqual(['aws', 'azure', 'gcp']);
  expect(liveCooldownSeconds(config, 'gcp')).toBe(600);
  expect(liveCooldownSeconds(config, 'aws')).toBe(120);
});
