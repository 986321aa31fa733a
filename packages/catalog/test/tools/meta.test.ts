import { Layer, Principal, Registry } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPrompts } from '../../src/prompts/index.js';
import { createCatalogLayer } from '../../src/registry.js';
import { registerMetaTools } from '../../src/tools/meta/index.js';
import { summarise } from '../../src/tools/meta/list-capabilities.js';
import { ASSET_TYPES, assetTypesByFamily } from '../../src/tools/meta/vocabulary/index.js';
import { registerPrivacyTools } from '../../src/tools/privacy/index.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { sampleWorkspace } from '../support/estate.js';

interface ToolEntry {
  name: string;
  capabilities: string[];
  sensitivity: string;
}
interface Capabilities {
  server: string;
  tool_count: number;
  categories: Record<string, ToolEntry[]>;
  prompts: string[];
  workflows: Record<string, string[]>;
  conventions: Record<string, string>;
}
interface Schema {
  asset_types: Record<string, string[]>;
  edge_types: Record<string, string>;
  severities: string[];
  relation_groups: Record<string, string[]>;
  compliance_statuses: string[];
  providers: string[];
}

function layerOver(ws: Workspace, options: { prefix?: string } = {}): Layer<Workspace> {
  const registry = new Registry<Workspace>();
  registerMetaTools(registry);
  registerPrivacyTools(registry);
  registerPrompts(registry);
  return new Layer<Workspace>({ app: ws, registry, ...options });
}

describe('meta tools', () => {
  let layer: Layer<Workspace>;
  beforeAll(async () => {
    layer = layerOver(await sampleWorkspace());
  });

  it('declare the documented metadata: meta category, public, no capability, read-only and idempotent', () => {
    for (const name of ['list_capabilities', 'describe_schema', 'explain_asset_type', 'explain_edge_type']) {
      const spec = layer.getTool(name);
      expect(spec.category).toBe('meta');
      expect(spec.sensitivity).toBe('public');
      expect([...spec.capabilities]).toEqual([]);
      expect(spec.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(spec.outputSchema).toBeUndefined();
      expect(spec.timeoutSeconds).toBeUndefined();
    }
    expect([...layer.getTool('list_capabilities').tags]).toEqual(['start-here']);
  });

  it('list_capabilities groups the visible tools by category with summaries, counts and workflows', async () => {
    const result = await layer.callTool('list_capabilities', {});
    expect(result.isError).toBe(false);
    const out = result.structured as unknown as Capabilities;
    expect(out.server).toBe('cloudg');
    expect(out.tool_count).toBe(9);
    expect(Object.keys(out.categories)).toEqual(['meta', 'privacy']);
    const describe = out.categories.meta?.find((t) => t.name === 'describe_schema');
    expect(describe).toEqual({
      name: 'describe_schema',
      title: 'Describe schema',
      read_only: true,
      open_world: false,
      sensitivity: 'public',
      capabilities: [],
      summary:
        "cloudg's vocabulary: asset types by family, how each edge type reads, severities, relation types by relation group, compliance statuses and providers.",
    });
    const reveal = out.categories.privacy?.find((t) => t.name === 'reveal_token');
    expect(reveal?.capabilities).toEqual(['reveal']);
    expect(reveal?.sensitivity).toBe('restricted');
    expect(out.prompts.slice(0, 2)).toEqual(['security_posture_review', 'executive_summary']);
    expect(out.prompts).toHaveLength(11);
    expect(out.conventions).toEqual({
      dataset: 'empty = active dataset',
      ref: 'asset id, ARN, unique name or unique ARN tail',
      pagination: 'pass next_cursor back as cursor; cursors expire when the dataset changes',
    });
    // Only tools this registry holds appear in the workflows; the rest are left out.
    expect(out.workflows).toEqual({});
  });

  it('list_capabilities reports exposed (prefixed) names', async () => {
    const prefixed = layerOver(await sampleWorkspace(), { prefix: 'cloudg_' });
    const out = (await prefixed.callTool('cloudg_list_capabilities', {}))
      .structured as unknown as Capabilities;
    expect(out.categories.meta?.map((t) => t.name)).toContain('cloudg_explain_edge_type');
    expect(out.prompts[0]).toBe('cloudg_security_posture_review');
  });

  it('describe_schema returns one section or the whole vocabulary', async () => {
    const edges = (await layer.callTool('describe_schema', { section: 'edge_types' })).structured;
    expect(edges).toEqual({
      edge_types: {
        SECURITY_GROUP_RULE: 'allows traffic',
        NACL_RULE: 'allows traffic',
        ROUTE: 'routes through / forwards to',
        IAM_TRUST: 'may assume',
        IAM_POLICY_ATTACHMENT: 'has policy',
        CONTAINS: 'contains',
        PEERING: 'peers with',
        LOAD_BALANCER_TARGET: 'sends traffic to',
        INTERNET_EXPOSED: 'exposes',
        ATTACHED_TO: 'is attached to',
        REFERENCES: 'uses / points at',
        INVOKES: 'triggers / calls',
        USES_IMAGE: 'runs the image of',
        ASSUMES_ROLE: 'runs as',
        GRANTS_ACCESS: 'is granted access to',
        LOGS_TO: 'sends logs to',
        PROTECTS: 'protects',
        MONITORS: 'monitors',
        MANAGES: 'manages',
        GOVERNS: 'governs',
      },
    });
    const groups = (await layer.callTool('describe_schema', { section: 'relation_groups' })).structured;
    expect(groups).toEqual({
      relation_groups: ['NETWORK', 'CONTAINMENT', 'IAM', 'DATA_FLOW', 'SECURITY', 'COMPUTE', 'GOVERNANCE'],
    });
    const all = (await layer.callTool('describe_schema', {})).structured as unknown as Schema;
    expect(Object.keys(all.asset_types)).toHaveLength(22);
    expect(Object.keys(all.edge_types)).toHaveLength(20);
    expect(all.severities).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);
    expect(Object.keys(all.relation_groups)).toHaveLength(7);
    expect(all.relation_groups.IAM).toContain('CROSS_ACCOUNT_TRUST');
    expect(all.providers).toEqual(['AWS', 'AZURE', 'GCP']);
    expect(all.compliance_statuses).toEqual(
      expect.arrayContaining(['PASS', 'FAIL', 'NOT_APPLICABLE', 'MANUAL']),
    );
  });

  it('describe_schema refuses a section outside its enum', async () => {
    const result = await layer.callTool('describe_schema', { section: 'colours' });
    expect(result.isError).toBe(true);
    expect(result.errorCode).toBe(-32602);
  });

  it('the asset type catalogue covers every type of the sample estate, once', async () => {
    const ws = await sampleWorkspace();
    for (const type of ws.get().indexes.byType.keys()) expect(ASSET_TYPES).toContain(type);
    const flat = Object.values(assetTypesByFamily()).flat();
    expect(new Set(flat).size).toBe(flat.length);
  });

  it('explain_asset_type parses case-insensitively and counts the type in the active dataset', async () => {
    const result = await layer.callTool('explain_asset_type', { asset_type: 'rds_instance' });
    expect(result.structured).toEqual({
      asset_type: 'RDS_INSTANCE',
      family: 'Database',
      note: null,
      ontology_class: 'cm:RelationalDatabase',
      terraform_type: 'aws_db_instance',
      sensitive_data_store: true,
      crown_jewel_weight: 10,
      internet_exposure_expected: false,
      in_active_dataset: 1,
    });
  });

  it('explain_asset_type leaves out the count when nothing is loaded', async () => {
    const { Workspace } = await import('../../src/workspace/workspace.js');
    const empty = layerOver(new Workspace({ allowedRoots: ['/tmp'], cwd: '/tmp' }));
    const out = (await empty.callTool('explain_asset_type', { asset_type: 'LOAD_BALANCER' })).structured;
    expect(out).toMatchObject({ asset_type: 'LOAD_BALANCER', internet_exposure_expected: true });
    expect(out).not.toHaveProperty('in_active_dataset');
  });

  it('explain_asset_type names close matches for an unknown type, never echoing it in the text', async () => {
    const result = await layer.callTool('explain_asset_type', { asset_type: 'LAMBDA' });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(
      /^Unknown asset type\. Did you mean LAMBDA_FUNCTION, ALARM\? Valid values: EC2, VIRTUAL_MACHINE, GCE_INSTANCE, LAMBDA_FUNCTION, CLOUD_FUNCTION, /,
    );
    expect(result.meta['cloudg/error_code']).toBe(-32602);
    const data = result.meta['cloudg/error_data'] as Record<string, unknown>;
    expect(data.value).toBe('LAMBDA');
    expect(data.close_matches).toEqual(['LAMBDA_FUNCTION', 'ALARM']);
    expect(data.valid).toEqual(ASSET_TYPES);
  });

  it("explain_edge_type reproduces the reference's CONTAINS and ASSUMES_ROLE examples", async () => {
    expect((await layer.callTool('explain_edge_type', { edge_type: 'contains' })).structured).toEqual({
      edge_type: 'CONTAINS',
      reads_as: 'source contains target',
      typical: 'VPC -> subnet, subnet -> instance, account -> resource',
      note: 'VPC contains Subnet',
      dependency_direction: 'reverse',
      ontology_relations:
        'inferred from both endpoint types (VPC_CONTAINS_SUBNET, SUBNET_CONTAINS_INSTANCE, CLUSTER_CONTAINS_SERVICE, ORG_CONTAINS_ACCOUNT), else the generic CONTAINS',
    });
    expect((await layer.callTool('explain_edge_type', { edge_type: 'ASSUMES_ROLE' })).structured).toEqual({
      edge_type: 'ASSUMES_ROLE',
      reads_as: 'source runs as target',
      typical: 'function, task, node group, instance profile -> role / service account',
      note: 'compute or service account -> IAM role it runs as',
      dependency_direction: 'forward',
      ontology_relations: ['RUNS_ON'],
    });
  });

  it('explain_edge_type names the relations the ontology writes, as its ontology section documents them', async () => {
    // Where the reference's meta section named relations its ontology never writes (ROUTES_TO,
    // PEERS_WITH, USES_IMAGE, MANAGED_BY; DEPENDS_ON or READS_FROM chosen by target on REFERENCES),
    // the ontology section wins: meta-ontology.test.ts checks every edge type against the rules.
    const relationsOf = async (edge_type: string) =>
      ((await layer.callTool('explain_edge_type', { edge_type })).structured as Record<string, unknown>)
        .ontology_relations;
    expect(await relationsOf('ROUTE')).toEqual(['TRANSIT_ROUTED']);
    expect(await relationsOf('PEERING')).toEqual(['VPC_PEERED']);
    expect(await relationsOf('USES_IMAGE')).toEqual(['RUNS_ON']);
    expect(await relationsOf('MANAGES')).toEqual(['OWNED_BY']);
    expect(await relationsOf('GOVERNS')).toEqual(['COMPLIANCE_GOVERNS']);
    expect(await relationsOf('REFERENCES')).toEqual(['DEPENDS_ON']);
    expect(await relationsOf('INVOKES')).toEqual(['INVOKES']);
    expect(await relationsOf('LOAD_BALANCER_TARGET')).toEqual(['LB_TARGETS_INSTANCE', 'LOAD_BALANCED_BY']);
    expect(await relationsOf('IAM_TRUST')).toMatch(/^ROLE_ASSUMES_ROLE, plus CROSS_ACCOUNT_TRUST /);
    expect(await relationsOf('NACL_RULE')).toMatch(/^none: /);
  });

  it('explain_edge_type suggests INVOKES for LIKES', async () => {
    const result = await layer.callTool('explain_edge_type', { edge_type: 'LIKES' });
    expect(result.isError).toBe(true);
    const data = result.meta['cloudg/error_data'] as Record<string, unknown>;
    expect(data.close_matches).toEqual(['INVOKES']);
    expect((data.valid as string[]).slice(0, 3)).toEqual(['SECURITY_GROUP_RULE', 'NACL_RULE', 'ROUTE']);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^Unknown edge type\. Did you mean INVOKES\? Valid values: SECURITY_GROUP_RULE, NACL_RULE, ROUTE, IAM_TRUST, /,
    );
  });
});

describe('list_capabilities over the default registry', () => {
  it('follows the policy: counts, categories and workflows name only what the caller can use', async () => {
    const ws = await sampleWorkspace();
    const layer = createCatalogLayer({ workspace: ws, policy: Policy.fromProfile('standard') });
    const out = (await layer.callTool('list_capabilities', {})).structured as unknown as Capabilities & {
      resources: number;
      resource_templates: number;
    };
    const visible = layer.listTools(Principal.local());
    expect(out.tool_count).toBe(visible.length);
    expect(out.tool_count).toBe(layer.registry.tools.size - 1);
    const listed = Object.values(out.categories).flatMap((tools) => tools.map((t) => t.name));
    expect(listed).not.toContain('reveal_token');
    expect(listed.sort()).toEqual(visible.map((t) => t.name).sort());
    expect(out.resources).toBe(layer.listResources().length);
    expect(out.resource_templates).toBe(layer.listResourceTemplates().length);
    for (const steps of Object.values(out.workflows)) {
      for (const step of steps) for (const tool of step.split(' / ')) expect(listed).toContain(tool);
    }
    expect(out.workflows.orient?.slice(0, 3)).toEqual([
      'workspace_status',
      'dataset_summary',
      'count_assets',
    ]);
  });

  it('summarises a description by its first sentence, not stopping at e.g.', () => {
    expect(summarise('An AssetType value, e.g. LAMBDA_FUNCTION. More text.')).toBe(
      'An AssetType value, e.g. LAMBDA_FUNCTION.',
    );
    expect(summarise('x'.repeat(200))).toHaveLength(160);
  });
});
