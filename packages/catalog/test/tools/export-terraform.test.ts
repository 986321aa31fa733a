// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the expected values are Terraform expressions and escapes, not JavaScript templates.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLayer } from './export-support.js';
import { call, callError } from './support.js';

type Parsed = {
  resource?: Record<string, Record<string, Record<string, unknown>[]>>;
  provider?: Record<string, unknown[]>;
  variable?: Record<string, Record<string, unknown>[]>;
  terraform?: unknown[];
};

/** Parse a written file with HashiCorp's HCL parser (compiled to WebAssembly). */
async function hcl(path: string): Promise<Parsed> {
  return (await parse(path, await readFile(path, 'utf8'))) as Parsed;
}

let ctx: Awaited<ReturnType<typeof exportLayer>>;
beforeAll(async () => {
  ctx = await exportLayer();
});
afterAll(() => ctx.cleanup());

describe('terraform_preview', () => {
  it('counts the whole sample estate as the reference does', async () => {
    const result = await call(ctx.layer, 'terraform_preview', {});
    expect(result).toMatchObject({
      dataset: 'sample',
      assets_considered: 44,
      total_mapped: 29,
      total_unmapped: 15,
    });
    const types = result.resource_types as Record<string, number>;
    expect(Object.entries(types).slice(0, 5)).toEqual([
      ['aws_vpc', 1],
      ['aws_subnet', 2],
      ['aws_security_group', 4],
      ['aws_lb', 1],
      ['aws_instance', 3],
    ]);
    expect(Object.keys(types)).toHaveLength(18);
    const unmapped = result.unmapped_asset_types as Record<string, number>;
    expect(Object.entries(unmapped).slice(0, 5)).toEqual([
      ['ORGANIZATION', 1],
      ['ORG_UNIT', 1],
      ['CLOUD_ACCOUNT', 3],
      ['ORG_POLICY', 1],
      ['TARGET_GROUP', 1],
    ]);
    expect(Object.keys(unmapped)).toHaveLength(13);
  });

  it('previews the assets refs pick', async () => {
    expect(await call(ctx.layer, 'terraform_preview', { refs: ['web-1', 'orders-db'] })).toEqual({
      dataset: 'sample',
      assets_considered: 2,
      total_mapped: 2,
      total_unmapped: 0,
      resource_types: { aws_instance: 1, aws_db_instance: 1 },
      unmapped_asset_types: {},
    });
  });

  it('combines refs with an asset_types filter', async () => {
    const result = await call(ctx.layer, 'terraform_preview', {
      refs: ['web-1', 'orders-db'],
      asset_types: ['ec2'],
    });
    expect(result).toMatchObject({ assets_considered: 1, resource_types: { aws_instance: 1 } });
  });

  it('refuses an unknown reference with close matches', async () => {
    const error = await callError(ctx.layer, 'terraform_preview', { refs: ['web-11'] });
    expect(error.code).toBe(-32602);
    expect(error.text).toContain('No asset matches the reference in this dataset. 5 close matches');
    const data = error.data as { value: string; suggestions: { id: string }[] };
    expect(data.value).toBe('web-11');
    expect(data.suggestions.slice(0, 2).map((s) => s.id)).toEqual(['web-1', 'web-2']);
  });

  it('refuses an unknown asset type', async () => {
    const error = await callError(ctx.layer, 'terraform_preview', { asset_types: ['EC3'] });
    expect(error.code).toBe(-32602);
  });
});

describe('export_terraform', () => {
  it('writes the four files of the documented example, and they parse as HCL', async () => {
    const result = await call(ctx.layer, 'export_terraform', { subdir: 'tf', asset_types: ['EC2', 'VPC'] });
    const dir = join(ctx.out, 'tf');
    expect(result).toEqual({
      dataset: 'sample',
      output_dir: dir,
      resources: 4,
      files: {
        provider: join(dir, 'provider.tf'),
        variables: join(dir, 'variables.tf'),
        main: join(dir, 'main.tf'),
        import_commands: join(dir, 'import_commands.sh'),
      },
    });
    const main = await hcl(join(dir, 'main.tf'));
    // Three EC2 instances and the VPC; the Azure and GCE machines are other types.
    expect(Object.keys(main.resource?.aws_instance ?? {}).sort()).toEqual(['bastion', 'web_1', 'web_2']);
    expect(Object.keys(main.resource?.aws_vpc ?? {})).toHaveLength(1);
    const web1 = main.resource?.aws_instance?.web_1?.[0] as Record<string, unknown>;
    expect(web1.instance_type).toBe('t3.large');
    expect(web1.tags).toMatchObject({ Name: 'web-1', env: 'prod', owner: 'web-team' });
    const provider = await hcl(join(dir, 'provider.tf'));
    expect(Object.keys(provider.provider ?? {})).toEqual(['aws']);
    const variables = await hcl(join(dir, 'variables.tf'));
    expect(variables.variable?.aws_region?.[0]).toMatchObject({ default: 'us-east-1' });
    const script = await readFile(join(dir, 'import_commands.sh'), 'utf8');
    expect(script).toContain("terraform import 'aws_instance.web_1' 'i-0web1'");
    expect(script.split('\n').filter((l) => l.startsWith('terraform import'))).toHaveLength(4);
  });

  it('writes every mapped asset of the estate with references between them, and it parses', async () => {
    const result = await call(ctx.layer, 'export_terraform', { subdir: 'all' });
    expect(result.resources).toBe(44);
    const main = await hcl(join(ctx.out, 'all', 'main.tf'));
    const count = Object.values(main.resource ?? {}).reduce((n, byName) => n + Object.keys(byName).length, 0);
    expect(count).toBe(29);
    const subnets = Object.values(main.resource?.aws_subnet ?? {}).map(
      (s) => s[0] as Record<string, unknown>,
    );
    expect(subnets.map((s) => s.vpc_id)).toEqual(['${aws_vpc.prod_vpc.id}', '${aws_vpc.prod_vpc.id}']);
    const web1 = main.resource?.aws_instance?.web_1?.[0] as Record<string, unknown>;
    expect(web1.subnet_id).toBe('${aws_subnet.prod_private_a.id}');
    expect(web1.vpc_security_group_ids).toEqual(['${aws_security_group.sg_app.id}']);
    const provider = await hcl(join(ctx.out, 'all', 'provider.tf'));
    expect(Object.keys(provider.provider ?? {}).sort()).toEqual(['aws', 'azurerm', 'google']);
  });

  it('keeps hostile names and tags literal: quotes, newlines and template sequences', async () => {
    const dataset = ctx.ws.get('sample');
    const web2 = dataset.indexes.assetById('web-2');
    if (!web2) throw new Error('web-2 missing');
    const before = { name: web2.name, tags: { ...web2.tags } };
    web2.tags.note = 'a "quoted" ${var.secret} %{ if true }\nsecond line \\ end';
    dataset.touch();
    try {
      await call(ctx.layer, 'export_terraform', { subdir: 'hostile', refs: ['web-2'] });
      const main = await hcl(join(ctx.out, 'hostile', 'main.tf'));
      const tags = (main.resource?.aws_instance?.web_2?.[0] as { tags: Record<string, string> } | undefined)
        ?.tags;
      // hcl2json prints template escapes as written; an unescaped `%{ if }` without its
      // `%{ endif }` would not parse at all, and an unescaped `${...}` would be an expression.
      expect(tags?.note).toBe('a "quoted" $${var.secret} %%{ if true }\nsecond line \\ end');
    } finally {
      web2.tags = before.tags;
      dataset.touch();
    }
  });

  it('refuses a subdir that escapes the output directory', async () => {
    const error = await callError(ctx.layer, 'export_terraform', { subdir: '../../etc' });
    expect(error.code).toBe(-31001);
    expect(error.text).toContain('must stay inside the output directory');
  });

  it('refuses a subdir outside the documented pattern before resolving it', async () => {
    const error = await callError(ctx.layer, 'export_terraform', { subdir: 'a b' });
    expect(error.code).toBe(-32602);
  });
});
