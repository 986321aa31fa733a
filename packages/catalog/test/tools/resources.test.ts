import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, readJson, sampleLayer } from './support.js';

let layer: Layer<Workspace>;
beforeEach(async () => {
  // As the reference's resource examples: sample, its snapshot baseline, and after; sample active.
  ({ layer } = await sampleLayer());
  await call(layer, 'snapshot_dataset', { new_name: 'baseline' });
  await call(layer, 'load_dataset', { path: 'after', name: 'after', activate: false });
});

describe('workspace resources', () => {
  it('cloudg://workspace is the status without next_steps', async () => {
    const status = await readJson(layer, 'cloudg://workspace');
    expect(status.active_dataset).toBe('sample');
    expect((status.datasets as { name: string }[]).map((d) => d.name)).toEqual([
      'sample',
      'baseline',
      'after',
    ]);
    expect(Object.keys(status)).toEqual([
      'active_dataset',
      'datasets',
      'allowed_roots',
      'output_dir',
      'providers_configured',
    ]);
  });

  it('cloudg://datasets holds the active dataset and the listing', async () => {
    const listing = await readJson(layer, 'cloudg://datasets');
    expect(Object.keys(listing)).toEqual(['active_dataset', 'datasets']);
    expect(listing.datasets).toHaveLength(3);
  });

  it('cloudg://datasets/{dataset}/summary returns the dataset_summary object', async () => {
    const summary = await readJson(layer, 'cloudg://datasets/sample/summary');
    const tool = await call(layer, 'dataset_summary', { dataset: 'sample' });
    expect(summary).toEqual(tool);
    const baseline = await readJson(layer, 'cloudg://datasets/baseline/summary');
    expect(baseline).toMatchObject({ dataset: 'baseline', kind: 'snapshot', total_assets: 44 });
  });

  it('an unknown dataset is a -32602 read error that does not name it; the loaded ones follow', async () => {
    await expect(layer.readResource('cloudg://datasets/nope/summary')).rejects.toMatchObject({
      code: -32602,
      // A JSON-RPC error has no second block: the hint follows the message.
      message:
        'No such dataset. 3 dataset(s) are loaded: they are listed with this error, or call list_datasets.\n' +
        'Loaded datasets (pass one as dataset): {"datasets":[{"dataset":"sample"},{"dataset":"baseline"},{"dataset":"after"}]}',
      data: { value: 'nope' },
    });
  });
});

describe('asset resources', () => {
  it('reads an asset addressed by its ARN', async () => {
    const [content] = await layer.readResource(
      'cloudg://assets/arn:aws:ec2:us-east-1:111111111111:instance/i-0bast',
    );
    expect(content?.mimeType).toBe('application/json');
    expect(JSON.parse((content as { text: string }).text)).toEqual({
      id: 'bastion',
      name: 'bastion',
      type: 'EC2',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0bast',
      internet_exposed: true,
      open_findings: 1,
      max_severity: 'HIGH',
      uri: 'cloudg://assets/bastion',
      tags: { env: 'prod', owner: 'platform' },
      relations: { outgoing: { ATTACHED_TO: 1, ASSUMES_ROLE: 1 }, incoming: { CONTAINS: 1 } },
      findings: [
        {
          id: 'f-bastion-imds',
          title: 'EC2 instance allows IMDSv1',
          severity: 'HIGH',
          risk_score: 7.5,
          source_tool: 'prowler',
          resource_id: 'bastion',
          resource_arn: null,
          asset_id: 'bastion',
          asset_name: 'bastion',
          compliance_frameworks: ['CIS-AWS'],
          is_suppressed: false,
          cvss_score: null,
          detected_at: '2026-01-15T12:00:00+00:00',
          uri: 'cloudg://findings/f-bastion-imds',
        },
      ],
      metadata_keys: ['public_ip'],
      dependencies: { direct_depends_on: 3, direct_dependents: 0 },
    });
  });

  it('percent-decodes the reference', async () => {
    const asset = await readJson(
      layer,
      'cloudg://assets/arn%3Aaws%3Aec2%3Aus-east-1%3A111111111111%3Ainstance%2Fi-0bast',
    );
    expect(asset.id).toBe('bastion');
  });

  it('lists the neighbours of the internet placeholder node', async () => {
    const view = await readJson(layer, 'cloudg://assets/0.0.0.0%2F0/neighbors');
    expect(view.asset).toBe('0.0.0.0/0');
    const edges = view.edges as Record<string, unknown>[];
    // The generated estate has seven edges leaving 0.0.0.0/0; the reference's print shows six.
    expect(edges.map((e) => e.target)).toEqual([
      'sg-web',
      'sg-admin',
      'alb-web',
      'api-gw',
      'logs-bucket',
      'az-nsg',
      'gcp-gcs',
    ]);
    expect(edges.slice(0, 2)).toEqual([
      {
        id: 'e-inet-sgweb',
        source: '0.0.0.0/0',
        source_name: '0.0.0.0/0',
        target: 'sg-web',
        target_name: 'sg-web',
        edge_type: 'SECURITY_GROUP_RULE',
        relationship: null,
        port_range: '80,443',
        protocol: 'TCP',
        cidr: '0.0.0.0/0',
        ports: [443, 80],
        direction: 'ingress',
      },
      {
        id: 'e-inet-sgadmin',
        source: '0.0.0.0/0',
        source_name: '0.0.0.0/0',
        target: 'sg-admin',
        target_name: 'sg-admin',
        edge_type: 'SECURITY_GROUP_RULE',
        relationship: null,
        port_range: '22',
        protocol: 'TCP',
        cidr: '0.0.0.0/0',
        ports: [22],
        direction: 'ingress',
      },
    ]);
    const neighbors = view.neighbors as Record<string, unknown>[];
    expect(neighbors).toHaveLength(7);
    expect(neighbors[1]).toEqual({
      id: 'sg-admin',
      name: 'sg-admin',
      type: 'SECURITY_GROUP',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
      internet_exposed: false,
      open_findings: 1,
      max_severity: 'CRITICAL',
      uri: 'cloudg://assets/sg-admin',
    });
  });

  it('describes a placeholder node itself', async () => {
    expect(await readJson(layer, 'cloudg://assets/0.0.0.0%2F0')).toEqual({
      id: '0.0.0.0/0',
      external: true,
      name: '0.0.0.0/0',
      degree: 7,
    });
  });

  it('lists the open findings of an asset', async () => {
    const view = await readJson(layer, 'cloudg://assets/sg-admin/findings');
    expect(view.asset).toMatchObject({ id: 'sg-admin', open_findings: 1, max_severity: 'CRITICAL' });
    expect(view.findings).toEqual([
      expect.objectContaining({
        id: 'f-ssh-open',
        risk_score: 9.5,
        resource_arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
        compliance_frameworks: ['CIS-AWS', 'PCI-DSS'],
      }),
    ]);
  });

  it('an unknown asset is a ReferenceNotFoundError with suggestions in the data', async () => {
    await expect(layer.readResource('cloudg://assets/web-9')).rejects.toMatchObject({
      name: 'ReferenceNotFoundError',
      code: -32602,
      message: expect.stringMatching(
        /^No asset matches the reference in this dataset\. 5 close matches are listed with this error\. Use find_assets\(query=\.\.\.\) to search by name, ARN or tag\.\nClose matches \(pass one id as ref\): \{"close_matches":\[/,
      ),
      data: { value: 'web-9', dataset: 'sample' },
    });
  });

  it('an unknown URI is NotFoundError', async () => {
    await expect(layer.readResource('cloudg://nothing')).rejects.toMatchObject({
      name: 'NotFoundError',
      code: -32602,
      message: 'Unknown resource: cloudg://nothing',
    });
  });
});
