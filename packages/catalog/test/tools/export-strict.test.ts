import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Policy } from '@cloudg/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerExportTools } from '../../src/tools/export/index.js';
import { privacyWorkspace, VAULT_KEY } from '../privacy-profiles/support.js';
import { copyEstate, workspaceAt } from '../support/estate.js';

/** Real identifiers of the sample estate that must never reach a pseudonymised caller's files. */
const REAL = [
  'web-1',
  'orders-db',
  'web-alb',
  'sg-app',
  'prod-vpc',
  '111111111111',
  'i-0web1',
  'alice@example.com',
  'hunter2-prod',
  'AKIAIOSFODNN7EXAMPLE',
];

/** privacyWorkspace's planted web-1, over a private copy of the estate (exports write under it). */
async function plantedCopy(dir: string): Promise<Workspace> {
  const ws = workspaceAt(dir);
  await ws.load(join(dir, 'inventory'), { name: 'sample' });
  const dataset = ws.get('sample');
  const web1 = dataset.indexes.assetById('web-1');
  if (!web1) throw new Error('web-1 missing from the sample estate');
  web1.tags.Owner = 'alice@example.com';
  Object.assign(web1.metadata, { db_password: 'hunter2-prod', AccessKeyId: 'AKIAIOSFODNN7EXAMPLE' });
  dataset.touch();
  return ws;
}

function layerUnder(policy: Policy, ws: Workspace) {
  const registry = defaultRegistry();
  if (!registry.tools.has('terraform_preview')) registerExportTools(registry);
  return createCatalogLayer({ workspace: ws, registry, policy });
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

describe('exports under strict', () => {
  it('hides the writers (write_fs is denied) and keeps terraform_preview, which names no asset', async () => {
    const policy = Policy.fromProfile('strict', { vaultEnv: { CLOUDG_MCP_VAULT_KEY: VAULT_KEY } });
    const layer = layerUnder(policy, await privacyWorkspace());
    const names = layer.listTools().map((t) => t.name);
    expect(names).toContain('terraform_preview');
    expect(names).not.toContain('export_report');
    expect(names).not.toContain('export_terraform');
    const result = await layer.callTool('terraform_preview', {});
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({ assets_considered: 44, total_mapped: 29 });
  });
});

/**
 * strict with file writes allowed again (the reference's own example of a child policy): every
 * file the exports write carries pseudonyms, as a result would, never the real value.
 */
describe('exports under strict with write_fs allowed', () => {
  let estate: Awaited<ReturnType<typeof copyEstate>>;
  let layer: ReturnType<typeof layerUnder>;
  let out: string;
  beforeAll(async () => {
    estate = await copyEstate();
    out = join(estate.dir, 'out');
    const ws = await plantedCopy(estate.dir);
    const policy = Policy.load(
      { name: 'strict-exports', extends: 'strict', allow_capabilities: ['write_fs'] },
      { vaultEnv: { CLOUDG_MCP_VAULT_KEY: VAULT_KEY } },
    );
    layer = layerUnder(policy, ws);
  });
  afterAll(() => estate.cleanup());

  it('writes every format and Terraform with pseudonyms only', async () => {
    for (const format of ['json', 'html', 'inventory', 'graphml', 'asset_map']) {
      const result = await layer.callTool('export_report', { format, subdir: `strict/${format}` });
      expect(result.isError, JSON.stringify(result.content)).toBe(false);
    }
    const tf = await layer.callTool('export_terraform', { subdir: 'strict/tf' });
    expect(tf.isError, JSON.stringify(tf.content)).toBe(false);
    const files = await filesUnder(join(out, 'strict'));
    expect(files.length).toBe(14);
    for (const file of files) {
      expect(file).not.toContain('sample.graphml');
      const text = await readFile(file, 'utf8');
      for (const real of REAL) expect(text.includes(real), `${real} in ${file}`).toBe(false);
    }
  });

  it('keeps the pseudonymised graph whole: the Terraform references and the report paths still connect', async () => {
    const main = await readFile(join(out, 'strict/tf/main.tf'), 'utf8');
    expect(main).toMatch(/vpc_id = aws_vpc\.\w+\.id/);
    const json = JSON.parse(await readFile(join(out, 'strict/json/findings.json'), 'utf8')) as {
      assets: { id: string }[];
      edges: { source_id: string; target_id: string }[];
    };
    // Pseudonyms where the names were (strict's res-… form), not empty or dropped values.
    expect(json.assets.filter((a) => /^res-[0-9a-f]{10}$/.test(a.id)).length).toBeGreaterThan(30);
    const ids = new Set(json.assets.map((a) => a.id));
    const linked = json.edges.filter((e) => ids.has(e.source_id) && ids.has(e.target_id));
    expect(linked.length).toBeGreaterThan(json.edges.length / 2);
  });
});
