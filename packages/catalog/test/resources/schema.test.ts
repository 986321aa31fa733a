import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, readJson, sampleLayer } from '../tools/support.js';

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await sampleLayer());
});

const assetTypeTemplate = { type: 'ref/resource', uri: 'cloudg://schema/asset-types/{asset_type}' } as const;

describe('schema resources', () => {
  it('cloudg://schema/asset-types/KMS_KEY reproduces the reference example', async () => {
    // The family label is the catalog vocabulary's own wording (the reference prints "Secrets / Keys"),
    // the same label describe_schema and explain_asset_type give.
    expect(await readJson(layer, 'cloudg://schema/asset-types/KMS_KEY')).toEqual({
      asset_type: 'KMS_KEY',
      family: 'Secrets and keys',
      note: null,
      ontology_class: 'cm:EncryptionKey',
      terraform_type: 'aws_kms_key',
    });
  });

  it('agrees with explain_asset_type and reads a type case-insensitively', async () => {
    const tool = await call(layer, 'explain_asset_type', { asset_type: 'LAMBDA_FUNCTION' });
    const resource = await readJson(layer, 'cloudg://schema/asset-types/lambda_function');
    expect(resource).toEqual({
      asset_type: tool.asset_type,
      family: tool.family,
      note: tool.note,
      ontology_class: tool.ontology_class,
      terraform_type: tool.terraform_type,
    });
  });

  it('fails the read with -32602 for an unknown asset type, suggesting close ones', async () => {
    await expect(layer.readResource('cloudg://schema/asset-types/LAMBDA')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown asset type\. Did you mean LAMBDA_FUNCTION/),
    });
  });

  it('cloudg://schema/asset-types is describe_schema asset_types by family', async () => {
    const byFamily = await readJson(layer, 'cloudg://schema/asset-types');
    expect(byFamily).toEqual((await call(layer, 'describe_schema', { section: 'asset_types' })).asset_types);
    expect(byFamily['Secrets and keys']).toContain('KMS_KEY');
  });

  it('cloudg://schema/edge-types lists each edge type as the reference shows them', async () => {
    const edges = (await readJson(layer, 'cloudg://schema/edge-types')) as Record<
      string,
      Record<string, string>
    >;
    expect(Object.keys(edges)).toHaveLength(20);
    expect(Object.keys(edges).slice(0, 3)).toEqual(['SECURITY_GROUP_RULE', 'NACL_RULE', 'ROUTE']);
    expect(edges.SECURITY_GROUP_RULE).toMatchObject({
      reads_as: 'allows traffic',
      dependency_direction: 'none',
    });
    expect(edges.CONTAINS).toMatchObject({ reads_as: 'contains', dependency_direction: 'reverse' });
    expect(edges.ASSUMES_ROLE).toMatchObject({ reads_as: 'runs as', dependency_direction: 'forward' });
    for (const entry of Object.values(edges))
      expect(Object.keys(entry)).toEqual(['reads_as', 'typical', 'dependency_direction']);
  });

  it('cloudg://schema/relation-types is describe_schema relation_types by group', async () => {
    expect(await readJson(layer, 'cloudg://schema/relation-types')).toEqual(
      (await call(layer, 'describe_schema', { section: 'relation_types' })).relation_types,
    );
  });

  it('completes asset types by upper-cased prefix', async () => {
    const result = await layer.complete(assetTypeTemplate, { name: 'asset_type', value: 'kms' });
    expect(result.values).toEqual(['KMS_KEY']);
    const lambda = await layer.complete(assetTypeTemplate, { name: 'asset_type', value: 'lambda' });
    expect(lambda.values).toContain('LAMBDA_FUNCTION');
  });

  it('lists the schema resources as public JSON', async () => {
    const listed = await layer.listResources();
    const uris = listed.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'cloudg://schema/asset-types',
        'cloudg://schema/edge-types',
        'cloudg://schema/relation-types',
      ]),
    );
  });
});
