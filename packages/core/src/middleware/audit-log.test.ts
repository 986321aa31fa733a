/** @isolated it sets process.env for a while. */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AccessDeniedError, RateLimitedError } from '../errors.js';
import { canonicalJson } from '../json.js';
import { Layer } from '../layer/layer.js';
import type { PolicyPort, TransformPipeline } from '../policy-port.js';
import { Principal } from '../principal.js';
import { Registry } from '../registry.js';
import { ToolResult } from '../results.js';
import type { AnySpec } from '../specs/index.js';
import { AuditLogMiddleware, auditHash, createAuditHasher, UNMATCHED_URI } from './audit-log.js';
import type { Middleware } from './types.js';

const quiet = pino({ level: 'silent' });

/** Collects every line written to it, parsed. */
function capture() {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** Denies `secret_tool`, rate-limits `busy_tool`; adds a transform report to every output. */
const policy: PolicyPort = {
  name: 'test',
  isAllowed: () => true,
  checkCall(spec: AnySpec) {
    if (spec.name === 'secret_tool') throw new AccessDeniedError('Access denied by policy test');
    if (spec.name === 'busy_tool') throw new RateLimitedError('Rate limit exceeded');
  },
  outputPipeline: (): TransformPipeline => ({
    isEmpty: false,
    run: (value) => ({ value, report: { redacted: { email: 1 }, annotations: { z: 1, a: 2 } } }),
  }),
  inputPipeline: () => undefined,
};

function registry(): Registry {
  const reg = new Registry();
  reg.tool({
    name: 'lookup',
    input: { ref: z.string(), filter: z.object({ b: z.number(), a: z.array(z.number()) }).optional() },
    sensitivity: 'internal',
    handler: (_ctx, args) => ({ ref: args.ref }),
  });
  reg.tool({
    name: 'failing',
    handler: () => ToolResult.error('nothing there', { 'cloudg/error_code': 'not_here' }),
  });
  reg.tool({ name: 'secret_tool', handler: () => ({}) });
  reg.tool({ name: 'busy_tool', handler: () => ({}) });
  reg.tool({
    name: 'slow',
    handler: (ctx) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({}), 5_000);
        ctx.signal.addEventListener('abort', () => clearTimeout(timer));
      }),
  });
  reg.resourceTemplate({
    name: 'item',
    uriTemplate: 'test://items/{id}',
    completions: { id: () => ['alpha', 'beta'] },
    handler: (_ctx, vars) => ({ id: vars.id }),
  });
  return reg;
}

function layerWith(...middleware: Middleware[]): Layer {
  return new Layer({ registry: registry(), policy, middleware, logger: quiet });
}

const alice = new Principal({ id: 'alice', roles: ['default', 'analyst'] });
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

describe('AuditLogMiddleware', () => {
  it('writes one line per call with every field, keys sorted, values hashed and never written', async () => {
    const out = capture();
    const audit = new AuditLogMiddleware({ stream: out.stream, salt: 'fixed-salt' });
    const layer = layerWith(audit.middleware);
    await layer.callTool(
      'lookup',
      { ref: 'web-1', filter: { b: 2, a: [1] } },
      { principal: alice, requestId: 7 },
    );

    expect(out.raw).toHaveLength(1);
    const line = out.lines()[0]!;
    // Canonical JSON of {"b":2,"a":[1]} sorts the keys, so the hash does not depend on their order.
    const hash = (text: string) => createHmac('sha256', 'fixed-salt').update(text).digest('hex').slice(0, 16);
    expect(line).toEqual({
      argument_hashes: { filter: hash('{"a":[1],"b":2}'), ref: hash('"web-1"') },
      argument_keys: ['filter', 'ref'],
      duration_ms: expect.any(Number),
      event: 'mcp.call',
      kind: 'tool',
      name: 'lookup',
      outcome: 'ok',
      principal: { id: 'alice', roles: ['analyst', 'default'] },
      request_id: 7,
      sensitivity: 'internal',
      transforms: { annotations: { a: 2, z: 1 }, redacted: { email: 1 } },
      ts: expect.stringMatching(TS),
    });
    expect(out.raw[0]).toBe(canonicalJson(line)); // keys sorted at every depth
    expect(out.raw[0]).not.toContain('web-1');
    expect(String(line.duration_ms)).toMatch(/^\d+(\.\d{1,2})?$/);
  });

  it("records a signed-in caller's OAuth client id beside the subject, and nothing else of the token", async () => {
    const out = capture();
    const layer = layerWith(new AuditLogMiddleware({ stream: out.stream }).middleware);
    const signedIn = new Principal({
      id: 'alice@example.com',
      roles: ['default', 'analyst'],
      attributes: { auth: 'oauth', client_id: 'claude-code', scopes: ['mcp:tools'] },
    });
    await layer.callTool('lookup', { ref: 'web-1' }, { principal: signedIn, requestId: 1 });
    expect(out.lines()[0]!.principal).toEqual({
      client_id: 'claude-code',
      id: 'alice@example.com',
      roles: ['analyst', 'default'],
    });
  });

  it('hashes reproducibly with a fixed salt and differently with another', async () => {
    const run = async (salt: string) => {
      const out = capture();
      const layer = layerWith(new AuditLogMiddleware({ stream: out.stream, salt }).middleware);
      await layer.callTool('lookup', { ref: 'web-1' });
      return out.lines()[0]!.argument_hashes;
    };
    expect(await run('one')).toEqual(await run('one'));
    expect(await run('one')).not.toEqual(await run('two'));
    expect(auditHash('one', { b: 1, a: 2 })).toBe(auditHash('one', { a: 2, b: 1 }));
    expect(auditHash('one', 'web-1')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('takes the salt from CLOUDG_MCP_AUDIT_SALT by default', async () => {
    process.env.CLOUDG_MCP_AUDIT_SALT = 'env-salt';
    try {
      const out = capture();
      const layer = layerWith(new AuditLogMiddleware({ stream: out.stream }).middleware);
      await layer.callTool('lookup', { ref: 'web-1' });
      expect(out.lines()[0]!.argument_hashes).toEqual({ ref: auditHash('env-salt', 'web-1') });
    } finally {
      delete process.env.CLOUDG_MCP_AUDIT_SALT;
    }
  });

  it('with hashValues false records the keys only', async () => {
    const out = capture();
    const layer = layerWith(new AuditLogMiddleware({ stream: out.stream, hashValues: false }).middleware);
    await layer.callTool('lookup', { ref: 'web-1' });
    const line = out.lines()[0]!;
    expect(line.argument_keys).toEqual(['ref']);
    expect(line).not.toHaveProperty('argument_hashes');
  });

  it('records error results, denials, rate limits, rejections and exceptions', async () => {
    const out = capture();
    const audit = new AuditLogMiddleware({ stream: out.stream, salt: 's' });
    const explode: Middleware = async (info, next) => {
      if (info.name === 'lookup' && info.arguments.ref === 'explode') throw new TypeError('bad state');
      return next(info);
    };
    const layer = layerWith(audit.middleware, explode);
    await layer.callTool('failing');
    await layer.callTool('secret_tool');
    await layer.callTool('busy_tool');
    await layer.callTool('lookup', { ref: 1 }); // wrong type: InvalidArgumentsError
    const exploded = await layer.callTool('lookup', { ref: 'explode' });
    expect(exploded.isError).toBe(true); // the caller still gets an answer

    const lines = out.lines();
    for (const [i, raw] of out.raw.entries()) expect(raw).toBe(canonicalJson(lines[i]));
    expect(lines.map((l) => [l.name, l.outcome, l.error])).toEqual([
      ['failing', 'error', { code: 'not_here' }],
      ['secret_tool', 'denied', { code: -31001, type: 'AccessDeniedError' }],
      ['busy_tool', 'rate_limited', { code: -31029, type: 'RateLimitedError' }],
      ['lookup', 'rejected', { code: -32602, type: 'InvalidArgumentsError' }],
      ['lookup', 'exception', { code: null, type: 'TypeError' }],
    ]);
    expect(lines[1]).toEqual({
      argument_keys: [],
      duration_ms: expect.any(Number),
      error: { code: -31001, type: 'AccessDeniedError' },
      event: 'mcp.call',
      kind: 'tool',
      name: 'secret_tool',
      outcome: 'denied',
      principal: { id: 'local', roles: ['default', 'local'] },
      request_id: null,
      sensitivity: 'confidential',
      ts: expect.stringMatching(TS),
    });
  });

  it('records a cancelled call as cancelled', async () => {
    const out = capture();
    const layer = layerWith(new AuditLogMiddleware({ stream: out.stream }).middleware);
    const controller = new AbortController();
    const pending = layer.callTool('slow', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await pending;
    expect(out.lines()[0]).toMatchObject({
      outcome: 'cancelled',
      error: { code: -32800, type: 'CancelledError' },
    });
  });

  it('records resource reads and completions, hashing their arguments like any other', async () => {
    const out = capture();
    const layer = layerWith(new AuditLogMiddleware({ stream: out.stream, salt: 's' }).middleware);
    await layer.readResource('test://items/alpha');
    await layer.complete({ type: 'ref/resource', uri: 'test://items/{id}' }, { name: 'id', value: 'al' });
    const [read, completion] = out.lines();
    // A URI built from a template carries data: the template is named, the URI only hashed.
    expect(read).toMatchObject({
      kind: 'resource',
      name: 'test://items/{id}',
      uri_hash: auditHash('s', 'test://items/alpha'),
      argument_keys: ['id'],
      argument_hashes: { id: auditHash('s', 'alpha') },
      outcome: 'ok',
      transforms: { annotations: { a: 2, z: 1 }, redacted: { email: 1 } },
    });
    expect(out.raw[0]).not.toContain('alpha');
    expect(completion).toMatchObject({
      kind: 'completion',
      name: 'test://items/{id}',
      argument_keys: ['argument', 'context', 'value'],
      argument_hashes: {
        argument: auditHash('s', 'id'),
        context: auditHash('s', {}),
        value: auditHash('s', 'al'),
      },
      outcome: 'ok',
    });
  });

  it('names a static resource by its URI, with no URI hash', async () => {
    const out = capture();
    const reg = registry();
    reg.resource({ uri: 'test://status', name: 'status', handler: () => ({ ok: true }) });
    const layer = new Layer({ registry: reg, policy, logger: quiet });
    layer.use(new AuditLogMiddleware({ stream: out.stream, salt: 's' }).middleware);
    await layer.readResource('test://status');
    expect(out.lines()[0]).toMatchObject({ kind: 'resource', name: 'test://status', outcome: 'ok' });
    expect(out.lines()[0]).not.toHaveProperty('uri_hash');
  });

  describe('requests the layer answers before the middleware chain', () => {
    /** Hides `secret_tool`, the `hidden` prompt and the vault template; everything else as above. */
    const hiding: PolicyPort = {
      ...policy,
      isAllowed: (spec: AnySpec) =>
        !['secret_tool', 'hidden'].includes(spec.name) &&
        !(spec.kind === 'template' && spec.uriTemplate.startsWith('test://vault/')),
    };
    function hidingLayer(...middleware: Middleware[]): Layer {
      const reg = registry();
      reg.prompt({
        name: 'brief',
        arguments: [{ name: 'topic', required: true }],
        handler: (_ctx, args) => `About ${args.topic}`,
      });
      reg.prompt({ name: 'hidden', handler: () => 'secret' });
      reg.resourceTemplate({ name: 'vault', uriTemplate: 'test://vault/{id}', handler: () => ({}) });
      return new Layer({ registry: reg, policy: hiding, middleware, logger: quiet });
    }

    it('writes one not_found line for unknown and hidden tools, prompts, resources and completions', async () => {
      const out = capture();
      const layer = hidingLayer(new AuditLogMiddleware({ stream: out.stream, salt: 's' }).middleware);
      await expect(
        layer.callTool('no_such_tool', { ref: 'web-1' }, { principal: alice, requestId: 3 }),
      ).rejects.toThrow('Unknown tool');
      await expect(layer.callTool('secret_tool')).rejects.toThrow('Unknown tool');
      await expect(layer.getPrompt('hidden')).rejects.toThrow('Unknown prompt');
      await expect(layer.readResource('test://vault/arn:aws:iam::123456789012:role/admin')).rejects.toThrow(
        'Unknown resource',
      );
      await expect(layer.readResource('nothing://at/all')).rejects.toThrow('Unknown resource');
      await layer.complete({ type: 'ref/resource', uri: 'test://vault/{id}' }, { name: 'id', value: 'a' });
      await layer.complete({ type: 'ref/prompt', name: 'brief' }, { name: 'topic', value: 'x' });

      const lines = out.lines();
      for (const [i, raw] of out.raw.entries()) expect(raw).toBe(canonicalJson(lines[i]));
      const notFound = { code: -32602, type: 'NotFoundError' };
      expect(lines.map((l) => [l.kind, l.name, l.outcome, l.error])).toEqual([
        ['tool', 'no_such_tool', 'not_found', notFound],
        ['tool', 'secret_tool', 'not_found', notFound],
        ['prompt', 'hidden', 'not_found', notFound],
        ['resource', UNMATCHED_URI, 'not_found', notFound],
        ['resource', UNMATCHED_URI, 'not_found', notFound],
        ['completion', UNMATCHED_URI, 'not_found', undefined],
        ['completion', 'brief', 'not_found', undefined],
      ]);
      expect(lines[0]).toEqual({
        argument_hashes: { ref: auditHash('s', 'web-1') },
        argument_keys: ['ref'],
        duration_ms: expect.any(Number),
        error: notFound,
        event: 'mcp.call',
        kind: 'tool',
        name: 'no_such_tool',
        outcome: 'not_found',
        principal: { id: 'alice', roles: ['analyst', 'default'] },
        request_id: 3,
        ts: expect.stringMatching(TS),
      });
      // URIs the caller wrote are only hashed.
      expect(lines[3]).toMatchObject({
        argument_keys: [],
        uri_hash: auditHash('s', 'test://vault/arn:aws:iam::123456789012:role/admin'),
      });
      expect(lines[5]).toMatchObject({ uri_hash: auditHash('s', 'test://vault/{id}') });
      expect(out.raw.join('\n')).not.toMatch(/123456789012|nothing:\/\/|web-1|test:\/\/vault/);
    });

    it('records a prompt refused for a missing argument before the chain, as rejected', async () => {
      const out = capture();
      const layer = hidingLayer(new AuditLogMiddleware({ stream: out.stream, salt: 's' }).middleware);
      await expect(layer.getPrompt('brief', {})).rejects.toThrow('Missing required prompt arguments: topic');
      await layer.getPrompt('brief', { topic: 'storage' });
      expect(out.lines()).toEqual([
        expect.objectContaining({
          kind: 'prompt',
          name: 'brief',
          outcome: 'rejected',
          error: { code: -32602, type: 'InvalidArgumentsError' },
          sensitivity: 'internal',
        }),
        expect.objectContaining({ kind: 'prompt', name: 'brief', outcome: 'ok' }),
      ]);
    });

    it('writes exactly one line per request, wherever the request ends', async () => {
      const out = capture();
      const audit = new AuditLogMiddleware({ stream: out.stream, salt: 's' });
      // A second observer-less middleware, and the audit log inside it: still one line each.
      const passThrough: Middleware = (info, next) => next(info);
      const layer = hidingLayer(passThrough, audit.middleware);
      const requests: Array<() => Promise<unknown>> = [
        () => layer.callTool('lookup', { ref: 'a' }),
        () => layer.callTool('no_such_tool'),
        () => layer.callTool('busy_tool'),
        () => layer.getPrompt('brief'),
        () => layer.readResource('test://items/alpha'),
        () => layer.readResource('test://vault/x'),
        () => layer.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'a', value: '' }),
      ];
      for (const request of requests) await request().catch(() => undefined);
      expect(out.lines()).toHaveLength(requests.length);
    });
  });

  it("hashes with a given hasher, so the policy's 12-hex decision hashes are prefixes of these", async () => {
    const hasher = createAuditHasher('shared-key');
    const out = capture();
    const layer = layerWith(
      new AuditLogMiddleware({ stream: out.stream, salt: 'ignored', hasher }).middleware,
    );
    await layer.callTool('lookup', { ref: 'web-1' });
    const hash = out.lines()[0]!.argument_hashes as Record<string, string>;
    expect(hash.ref).toBe(hasher('web-1').slice(0, 16));
    expect(hash.ref).toBe(auditHash('shared-key', 'web-1'));
    expect(hash.ref?.startsWith(hasher('web-1').slice(0, 12))).toBe(true);
  });

  describe('with a path', () => {
    it('creates the directory and a 0600 file, and appends across instances', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
      const path = join(dir, 'nested', 'audit.jsonl');
      const first = new AuditLogMiddleware({ path, salt: 's' });
      await layerWith(first.middleware).callTool('lookup', { ref: 'a' });
      first.close();
      expect(statSync(path).mode & 0o777).toBe(0o600);

      const second = new AuditLogMiddleware({ path, salt: 's' });
      await layerWith(second.middleware).callTool('lookup', { ref: 'b' });
      second.close();
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).argument_hashes.ref)).toEqual([
        auditHash('s', 'a'),
        auditHash('s', 'b'),
      ]);
    });

    it('drops lines after close without breaking calls', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cloudg-audit-'));
      const path = join(dir, 'audit.jsonl');
      const audit = new AuditLogMiddleware({ path });
      audit.close();
      const result = await layerWith(audit.middleware).callTool('lookup', { ref: 'a' });
      expect(result.isError).toBe(false);
      expect(readFileSync(path, 'utf8')).toBe('');
    });
  });

  it('without path or stream writes to the layer logger at info under cloudg.mcp.audit', async () => {
    const records: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        records.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const layer = new Layer({
      registry: registry(),
      policy,
      logger: pino({ level: 'info' }, sink),
      middleware: [new AuditLogMiddleware({ salt: 's' }).middleware],
    });
    await layer.callTool('lookup', { ref: 'web-1' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 30,
      name: 'cloudg.mcp.audit',
      msg: 'mcp.call',
      audit: { event: 'mcp.call', name: 'lookup', argument_hashes: { ref: auditHash('s', 'web-1') } },
    });
    expect(JSON.stringify(records[0])).not.toContain('web-1');
  });

  it('a stream that fails to write never breaks the call', async () => {
    const broken = new Writable({
      write(_chunk, _enc, done) {
        done(new Error('disk full'));
      },
    });
    const layer = layerWith(new AuditLogMiddleware({ stream: broken }).middleware);
    const result = await layer.callTool('lookup', { ref: 'a' });
    expect(result.structured).toEqual({ ref: 'a' });
  });
});
