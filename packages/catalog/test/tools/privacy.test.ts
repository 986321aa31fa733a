import {
  type AnySpec,
  allowAllPolicy,
  type DecisionLogQuery,
  type DecisionLogView,
  type DecisionRecord,
  Layer,
  type PlannedDetector,
  type PolicyDetectors,
  type PolicyIntrospection,
  type PolicyPort,
  type PolicyStatus,
  Principal,
  Registry,
  type RevealResult,
} from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerMetaTools } from '../../src/tools/meta/index.js';
import { registerPrivacyTools } from '../../src/tools/privacy/index.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { sampleWorkspace } from '../support/estate.js';

/**
 * A small policy self-description with real state: a pseudonym table, a decision log and
 * detectors. It stands in for @cloudg/policy's introspection, which is not written yet, and
 * records what the tools asked so the tests can check they forward the caller faithfully.
 */
class TableIntrospection implements PolicyIntrospection {
  readonly asked: { preview?: AnySpec | undefined; status?: number; category?: string | undefined } = {};
  readonly pseudonyms = new Map<string, { value: string; entity: string }>([
    ['res-3c1f1e6b50', { value: 'web-1', entity: 'resource_name' }],
    ['person-6bbd789f86', { value: 'alice@example.com', entity: 'person' }],
  ]);
  readonly entries: DecisionRecord[] = [
    {
      ts: 1,
      decision: 'allowed',
      kind: 'tool',
      name: 'get_asset',
      principal: 'local',
      roles: ['local'],
      arguments: {},
    },
    {
      ts: 2,
      decision: 'denied',
      kind: 'tool',
      name: 'map_inventory',
      principal: 'ann',
      roles: ['analyst'],
      arguments: {},
    },
    {
      ts: 3,
      decision: 'denied',
      kind: 'tool',
      name: 'run_scanners',
      principal: 'local',
      roles: ['local'],
      arguments: {},
    },
  ];

  constructor(private readonly name: string) {}

  status(principal: Principal, facts: { visibleTools: number }): PolicyStatus {
    this.asked.status = facts.visibleTools;
    return {
      policy: this.name,
      description: 'a table',
      loaded_from: 'test',
      extends: [],
      principal: principal.toJSON(),
      max_sensitivity: null,
      denied_capabilities: [],
      visible_tools: facts.visibleTools,
      output_pipeline: [],
      pseudonymisation: {
        active: true,
        vault_scope: 'global',
        vault_entries: this.pseudonyms.size,
        by_entity: {},
        key_source: null,
      },
      audit_enabled: true,
      counters: {},
    };
  }

  async preview(data: unknown, options: { principal: Principal; tool?: AnySpec }) {
    this.asked.preview = options.tool;
    return { transformed: data, report: { previewed_for: options.principal.id } };
  }

  listDetectors(_principal: Principal, category?: string): PolicyDetectors {
    this.asked.category = category;
    const planned = (name: string, entity: string, group: string): PlannedDetector => ({
      name,
      entity,
      category: group,
      confidence: 0.9,
      strategy: 'redact',
      active: true,
    });
    const detectors = [
      planned('aws_access_key_id', 'aws_access_key_id', 'credential'),
      planned('ipv4', 'ip_address', 'network'),
    ].filter((d) => category === undefined || d.category === category);
    return { policy: this.name, detectors, key_rules: [] };
  }

  decisionLog(principal: Principal, options: DecisionLogQuery): DecisionLogView {
    const all = principal.hasRole('admin');
    const entries = this.entries
      .filter((e) => all || e.principal === principal.id)
      .filter((e) => options.decision === undefined || e.decision === options.decision);
    return {
      policy: this.name,
      audit_enabled: true,
      scope: all ? 'all' : 'own',
      total: entries.length,
      entries: entries.slice(-options.limit),
    };
  }

  reveal(token: string): RevealResult {
    const hit = this.pseudonyms.get(token);
    if (hit) return { pseudonym: token, found: true, value: hit.value, entity_type: hit.entity };
    let replaced = 0;
    let value = token;
    for (const [pseudonym, real] of this.pseudonyms) {
      if (value.includes(pseudonym)) {
        value = value.split(pseudonym).join(real.value);
        replaced += 1;
      }
    }
    return { pseudonym: token, found: replaced > 0, value: replaced > 0 ? value : null, replaced };
  }
}

/** A real @cloudg/policy profile with a self-description attached. */
function withIntrospection(policy: Policy, introspection: PolicyIntrospection): PolicyPort {
  return {
    name: policy.name,
    isAllowed: (spec, principal) => policy.isAllowed(spec, principal),
    checkCall: (spec, principal, call) => policy.checkCall(spec, principal, call),
    outputPipeline: (spec, principal) => policy.outputPipeline(spec, principal),
    inputPipeline: (spec, principal) => policy.inputPipeline(spec, principal),
    recordHidden: (kind, name, principal) => policy.recordHidden(kind, name, principal),
    recordRejection: (spec, principal, error) => policy.recordRejection(spec, principal, error),
    introspection,
  };
}

function layerWith(ws: Workspace, policy: PolicyPort): Layer<Workspace> {
  const registry = new Registry<Workspace>();
  registerMetaTools(registry);
  registerPrivacyTools(registry);
  return new Layer<Workspace>({ app: ws, registry, policy });
}

const ADMIN = new Principal({ id: 'root', roles: ['admin'] });

describe('privacy tools', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await sampleWorkspace();
  });

  it('declare the documented category, sensitivity, capabilities, annotations and hints', () => {
    const layer = layerWith(ws, allowAllPolicy);
    const expected: Record<string, [string, string[]]> = {
      privacy_status: ['internal', ['read_state']],
      preview_transform: ['internal', ['read_state']],
      list_detectors: ['public', ['read_state']],
      privacy_audit_log: ['restricted', ['read_state']],
      reveal_token: ['restricted', ['reveal']],
    };
    for (const [name, [sensitivity, capabilities]] of Object.entries(expected)) {
      const spec = layer.getTool(name);
      expect(spec.category).toBe('privacy');
      expect(spec.sensitivity).toBe(sensitivity);
      expect([...spec.capabilities]).toEqual(capabilities);
      expect(spec.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(spec.outputSchema).toBeUndefined();
      expect(spec.timeoutSeconds).toBeUndefined();
    }
    expect(layer.getTool('preview_transform').transformHints).toEqual({
      skip: ['*'],
      input_guard: false,
      depseudonymize: false,
    });
    expect(layer.getTool('reveal_token').transformHints).toEqual({
      pseudonymize: false,
      skip: ['substitute', 'alias'],
      input_guard: false,
      depseudonymize: false,
    });
    expect(layer.getTool('preview_transform').inputSchema.required).toEqual(['data']);
    expect(layer.getTool('reveal_token').inputSchema.properties).toMatchObject({
      token: { type: 'string', minLength: 1, maxLength: 20000 },
    });
  });

  describe("under core's allow-all policy, which has no introspection (nothing to report)", () => {
    let layer: Layer<Workspace>;
    beforeAll(() => {
      layer = layerWith(ws, allowAllPolicy);
    });

    it('privacy_status reports the policy name, the caller and the visible tools', async () => {
      const out = (await layer.callTool('privacy_status', {})).structured;
      expect(out).toMatchObject({
        policy: 'allow-all',
        principal: { id: 'local', roles: ['default', 'local'] },
        visible_tools: 9,
        output_pipeline: [],
        pseudonymisation: { active: false, vault_entries: 0, by_entity: {} },
        audit_enabled: false,
      });
    });

    it("privacy_status has the shape @cloudg/policy's status has: the same keys at every level", async () => {
      const bare = (await layer.callTool('privacy_status', {})).structured as Record<string, unknown>;
      const real = layerWith(ws, Policy.fromProfile('standard'));
      const full = (await real.callTool('privacy_status', {})).structured as Record<string, unknown>;
      const keys = (value: unknown) => Object.keys(value as object).sort();
      expect(keys(bare)).toEqual(keys(full));
      expect(keys(bare.pseudonymisation)).toEqual(keys(full.pseudonymisation));
      expect(keys(bare.principal)).toEqual(keys(full.principal));
      // What a bare port cannot know is null, never a different type.
      for (const key of ['description', 'loaded_from']) {
        expect(bare[key]).toBeNull();
        expect(typeof full[key]).toBe('string');
      }
    });

    it('preview_transform returns the sample unchanged, parsing a JSON string first', async () => {
      const data = {
        arn: 'arn:aws:iam::111111111111:role/app-role',
        password: 'hunter2',
        AccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      };
      expect((await layer.callTool('preview_transform', { data })).structured).toEqual({
        policy: 'allow-all',
        tool: null,
        transformed: data,
        report: {},
      });
      const parsed = await layer.callTool('preview_transform', { data: JSON.stringify(data) });
      expect(parsed.structured?.transformed).toEqual(data);
      const raw = await layer.callTool('preview_transform', { data: '{"a": 1}', parse_json: false });
      expect(raw.structured?.transformed).toBe('{"a": 1}');
    });

    it('preview_transform refuses a tool the caller cannot see, without echoing its name', async () => {
      const result = await layer.callTool('preview_transform', { data: {}, tool: 'no_such_tool' });
      expect(result.isError).toBe(true);
      expect(result.errorCode).toBe(-32602);
      expect((result.content[0] as { text: string }).text).not.toContain('no_such_tool');
      expect(result.meta['cloudg/error_data']).toEqual({ value: 'no_such_tool', close_matches: [] });
    });

    it('preview_transform names the close matches among the visible tools in its message', async () => {
      const result = await layer.callTool('preview_transform', { data: {}, tool: 'list_detector' });
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toBe(
        'Unknown tool. Did you mean list_detectors? Pass a tool name as tools/list shows it.',
      );
    });

    it('list_detectors, privacy_audit_log and reveal_token have nothing to show', async () => {
      expect((await layer.callTool('list_detectors', { category: 'credential' })).structured).toEqual({
        policy: 'allow-all',
        detectors: [],
        key_rules: [],
      });
      expect((await layer.callTool('privacy_audit_log', { limit: 3 })).structured).toEqual({
        policy: 'allow-all',
        audit_enabled: false,
        scope: 'own',
        total: 0,
        entries: [],
      });
      expect((await layer.callTool('reveal_token', { token: 'arn:aws:iam::1:role/x' })).structured).toEqual({
        pseudonym: 'arn:aws:iam::1:role/x',
        found: false,
        value: null,
        replaced: 0,
      });
    });
  });

  describe('through PolicyIntrospection', () => {
    let table: TableIntrospection;
    let layer: Layer<Workspace>;
    beforeAll(() => {
      table = new TableIntrospection('standard');
      layer = layerWith(ws, withIntrospection(Policy.fromProfile('standard'), table));
    });

    it('privacy_status hands the caller and its visible tool count to the policy', async () => {
      const out = (await layer.callTool('privacy_status', {})).structured;
      // standard hides reveal_token from the local user: 8 of the 9 tools here.
      expect(table.asked.status).toBe(8);
      expect(out).toMatchObject({ policy: 'standard', principal: { id: 'local' }, visible_tools: 8 });
    });

    it('preview_transform runs under its hints: secrets in the sample pass the input guard and the preview is not redacted again', async () => {
      const data = { password: 'hunter2', note: 'key AKIAIOSFODNN7EXAMPLE' };
      const result = await layer.callTool('preview_transform', { data });
      expect(result.isError).toBe(false);
      expect(result.structured).toEqual({
        policy: 'standard',
        tool: null,
        transformed: data,
        report: { previewed_for: 'local' },
      });
      expect(table.asked.preview).toBeUndefined();
      // The same sample in another tool's arguments is refused by standard's secret guard.
      const guarded = await layer.callTool('list_detectors', { category: 'password=hunter2' });
      expect(guarded.isError).toBe(true);
    });

    it('preview_transform passes the spec of the named tool', async () => {
      await layer.callTool('preview_transform', { data: { a: 1 }, tool: 'describe_schema' });
      expect(table.asked.preview?.name).toBe('describe_schema');
    });

    it('list_detectors forwards the category in lower case and returns the policy table', async () => {
      const out = (await layer.callTool('list_detectors', { category: 'Credential' })).structured;
      expect(table.asked.category).toBe('credential');
      expect(out).toEqual({
        policy: 'standard',
        detectors: [
          {
            name: 'aws_access_key_id',
            entity: 'aws_access_key_id',
            category: 'credential',
            confidence: 0.9,
            strategy: 'redact',
            active: true,
          },
        ],
        key_rules: [],
      });
    });

    it('privacy_audit_log filters by decision and shows everyone only to admins', async () => {
      const admin = layerWith(ws, withIntrospection(Policy.fromProfile('open'), table));
      const all = (await admin.callTool('privacy_audit_log', { decision: 'DENIED' }, { principal: ADMIN }))
        .structured;
      expect(all).toMatchObject({ scope: 'all', total: 2 });
      const own = (await admin.callTool('privacy_audit_log', { limit: 1 })).structured;
      expect(own).toMatchObject({ scope: 'own', total: 2, entries: [{ name: 'run_scanners' }] });
    });

    it('privacy_audit_log refuses an unknown decision with the valid list', async () => {
      const result = await layer.callTool('privacy_audit_log', { decision: 'maybe' });
      expect(result.isError).toBe(true);
      expect((result.meta['cloudg/error_data'] as { valid: string[] }).valid).toEqual([
        'ALLOWED',
        'DENIED',
        'RATE_LIMITED',
        'REJECTED',
        'NOT_FOUND',
      ]);
      const limit = await layer.callTool('privacy_audit_log', { limit: 1001 });
      expect(limit.isError).toBe(true);
    });

    it('reveal_token is hidden from a caller without the reveal capability', async () => {
      await expect(layer.callTool('reveal_token', { token: 'res-3c1f1e6b50' })).rejects.toThrow(
        'Unknown tool: reveal_token',
      );
    });

    it('reveal_token returns the real value to an admin, untouched by the output pipeline', async () => {
      const direct = await layer.callTool('reveal_token', { token: 'res-3c1f1e6b50' }, { principal: ADMIN });
      expect(direct.structured).toEqual({
        pseudonym: 'res-3c1f1e6b50',
        found: true,
        value: 'web-1',
        entity_type: 'resource_name',
      });
      const text = await layer.callTool(
        'reveal_token',
        { token: 'check res-3c1f1e6b50 owned by person-6bbd789f86' },
        { principal: ADMIN },
      );
      expect(text.structured).toEqual({
        pseudonym: 'check res-3c1f1e6b50 owned by person-6bbd789f86',
        found: true,
        value: 'check web-1 owned by alice@example.com',
        replaced: 2,
      });
    });
  });
});
