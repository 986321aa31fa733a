/** Lines on the audit logger (section 15.1): a pino child, INFO for decisions, WARNING for reveals. */
import { Writable } from 'node:stream';
import { AuditLogMiddleware, auditHash, defineTool, Layer, Registry, UNMATCHED_URI } from '@cloudg/core';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Policy, type PolicyDocument } from '../src/index.js';
import { as } from './helpers.js';

function capture(doc: PolicyDocument) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  const policy = Policy.load(doc, { logger });
  const registry = new Registry();
  registry.add(defineTool({ name: 'get_asset', handler: () => ({}) }));
  registry.add(defineTool({ name: 'map_inventory', capabilities: ['cloud_access'], handler: () => ({}) }));
  registry.add(defineTool({ name: 'reveal_token', capabilities: ['reveal'], handler: () => ({}) }));
  return { lines, policy, layer: new Layer({ policy, registry, logger }) };
}

describe('audit logger', () => {
  it('logs denials and hidden names at INFO whatever the audit setting, not allowed calls', async () => {
    const { lines, layer } = capture({ name: 'p', hide_denied: false, deny_capabilities: ['cloud_access'] });
    await layer.callTool('get_asset', {});
    await layer.callTool('map_inventory', {});
    await layer.callTool('nothing', {}).catch(() => undefined);
    expect(lines.map((l) => [l.level, l.logger, l.msg])).toEqual([
      [
        30,
        'cloudg.audit',
        "denied tool map_inventory principal=local capability 'cloud_access' is denied by policy 'p'",
      ],
      [30, 'cloudg.audit', 'not_found tool nothing principal=local unknown or hidden by policy'],
    ]);
    expect(lines[0]).toMatchObject({
      decision: 'denied',
      policy: 'p',
      principal: 'local',
      roles: ['default', 'local'],
    });
  });

  it('with audit: true logs allowed calls too', async () => {
    const { lines, layer } = capture({ audit: true });
    await layer.callTool('get_asset', { ref: 'web-1' }).catch(() => undefined);
    expect(lines.map((l) => l.msg)).toEqual(['allowed tool get_asset principal=local']);
    expect(JSON.stringify(lines)).not.toContain('web-1');
  });

  it('warns on every allowed reveal, with hashed arguments only', async () => {
    const { lines, layer, policy } = capture({ name: 'standard-ish' });
    await layer
      .callTool('reveal_token', { token: 'res-3c1f1e6b50' }, { principal: as('admin', 'root') })
      .catch(() => undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, event: 'reveal', principal: 'root', policy: 'standard-ish' });
    expect(String(lines[0]?.msg)).toMatch(
      /^REVEAL principal=root roles=\["admin","default"\] tool=reveal_token args=\{"token":"[0-9a-f]{12}"\} policy=standard-ish$/,
    );
    expect(JSON.stringify(lines)).not.toContain('res-3c1f1e6b50');
    expect(policy.counters.reveal).toBe(1);
    // The decision log marks the allowed reveal as such (MCP_TOOLS privacy_audit_log example).
    expect(policy.auditLog.at(-1)).toMatchObject({
      decision: 'allowed',
      name: 'reveal_token',
      reason: 'reveal',
    });
  });
});

describe('hashes shared with the JSONL audit log', () => {
  function jsonl() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    return { lines, stream };
  }

  it("makes each 12-hex decision hash the prefix of the audit log's 16-hex hash of the same value", async () => {
    const { policy, layer } = capture({ audit: true, vault: { key: 'vault-key-1' } });
    const out = jsonl();
    layer.use(new AuditLogMiddleware({ stream: out.stream, hasher: policy.auditHasher }).middleware);
    await layer.callTool('get_asset', { ref: 'web-1', depth: { max: 2 } });
    const decision = policy.auditLog.at(-1)?.arguments ?? {};
    const logged = out.lines[0]?.argument_hashes as Record<string, string>;
    expect(Object.keys(decision)).toEqual(['depth', 'ref']);
    for (const name of ['depth', 'ref']) {
      expect(decision[name]).toMatch(/^[0-9a-f]{12}$/);
      expect(logged[name]).toMatch(/^[0-9a-f]{16}$/);
      expect(logged[name]?.startsWith(decision[name] ?? '-')).toBe(true);
    }
  });

  it('keys both trails with CLOUDG_MCP_AUDIT_SALT when it is set, else with the vault key', () => {
    const hashOf = (options: Parameters<typeof Policy.load>[1], doc: PolicyDocument = { audit: true }) => {
      const policy = Policy.load(doc, options);
      const spec = defineTool({ name: 'get_asset', handler: () => ({}) });
      policy.checkCall(spec, as('analyst', 'ann'), {
        kind: 'tool',
        name: 'get_asset',
        arguments: { ref: 'web-1' },
      });
      return policy.auditLog.at(-1)?.arguments.ref;
    };
    // The salt a middleware reads from the same variable gives the same hash, 16 hex instead of 12.
    const salted = hashOf({ vaultEnv: { CLOUDG_MCP_AUDIT_SALT: 'docs-salt' } });
    expect(salted).toBe(auditHash('docs-salt', 'web-1').slice(0, 12));
    // Without a salt, the vault key decides: stable across restarts when the vault key is.
    const keyed = { audit: true, vault: { key: 'vault-key-1' } };
    expect(hashOf({ vaultEnv: {} }, keyed)).toBe(hashOf({ vaultEnv: {} }, keyed));
    expect(hashOf({ vaultEnv: {} }, keyed)).not.toBe(
      hashOf({ vaultEnv: {} }, { audit: true, vault: { key: 'vault-key-2' } }),
    );
    expect(hashOf({ vaultEnv: {} }, keyed)).not.toBe(salted);
  });

  it('records a hidden or unknown resource URI as a hash, never in clear', async () => {
    const { lines, policy, layer } = capture({ name: 'p' });
    const uri = 'cloudg://assets/arn:aws:iam::123456789012:role/admin';
    await expect(layer.readResource(uri)).rejects.toThrow('Unknown resource');
    expect(policy.auditLog.at(-1)).toMatchObject({
      decision: 'not_found',
      kind: 'resource',
      name: UNMATCHED_URI,
      arguments: { uri: policy.auditHasher(uri).slice(0, 12) },
    });
    expect(lines.map((l) => l.msg)).toEqual([
      'not_found resource (unmatched uri) principal=local unknown or hidden by policy',
    ]);
    expect(JSON.stringify([lines, policy.auditLog])).not.toContain('123456789012');
  });
});
