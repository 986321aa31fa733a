import { describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  InvalidArgumentsError,
  McpLayerError,
  NotFoundError,
  Principal,
  RateLimitedError,
} from '../src/index.js';
import { MaskingPipeline, RecordingPolicy, ReversingPipeline, testLayer } from './helpers.js';

describe('resources/read (section 4.3)', () => {
  it('serves an exact URI as compact JSON with the spec MIME type', async () => {
    const contents = await testLayer().readResource('test://status');
    expect(contents).toEqual([
      { uri: 'test://status', mimeType: 'application/json', text: '{"ok":true,"token":"secret-status"}' },
    ]);
  });

  it('serves indented JSON when the layer has prettyJson', async () => {
    const [contents] = await testLayer({ prettyJson: true }).readResource('test://status');
    expect((contents as { text: string }).text).toBe('{\n  "ok": true,\n  "token": "secret-status"\n}');
  });

  it('serves strings as text and bytes as a base64 blob that is not transformed', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    expect(await layer.readResource('test://readme')).toEqual([
      { uri: 'test://readme', mimeType: 'text/plain', text: 'read me [REDACTED]' },
    ]);
    expect(await layer.readResource('test://logo')).toEqual([
      { uri: 'test://logo', mimeType: 'image/png', blob: 'AQID' },
    ]);
  });

  it('runs the output pipeline over JSON results and reports it in the contents _meta', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const [contents] = await layer.readResource('test://status');
    expect(JSON.parse((contents as { text: string }).text)).toEqual({ ok: true, token: '[REDACTED]' });
    expect(contents!._meta).toEqual({ 'cloudg/transforms': { redacted: { secret: 1 } } });
  });

  it('matches templates, longest template string first, with URL-decoded variables', async () => {
    const layer = testLayer();
    const [item] = await layer.readResource('test://items/alpha');
    expect(JSON.parse((item as { text: string }).text)).toEqual({ id: 'alpha', value: 'A' });
    const [detail] = await layer.readResource('test://items/arn%3Aaws%3As3%3A%3A%3Ab/x/detail');
    expect(JSON.parse((detail as { text: string }).text)).toEqual({ detail: 'arn:aws:s3:::b/x' });
  });

  it('runs the input pipeline over template variables', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ input: new ReversingPipeline() }) });
    const [detail] = await layer.readResource('test://items/alias-web/detail');
    expect(JSON.parse((detail as { text: string }).text)).toEqual({ detail: 'real-web' });
  });

  it('unknown and hidden URIs raise NotFoundError "Unknown resource: ..." and are recorded', async () => {
    const policy = new RecordingPolicy({ hidden: ['status'] });
    const layer = testLayer({ policy });
    for (const uri of ['test://nothing', 'test://status']) {
      const error = await layer.readResource(uri).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).toJsonRpc()).toEqual({
        code: -32602,
        message: `Unknown resource: ${uri}`,
        data: { uri },
      });
    }
    expect(policy.hiddenCalls).toEqual([
      { kind: 'resource', name: 'test://nothing' },
      { kind: 'resource', name: 'test://status' },
    ]);
  });

  it('handler errors propagate: NotFoundError as is, anything else as Internal error -32603', async () => {
    const layer = testLayer();
    const missing = await layer.readResource('test://items/omega').catch((e: unknown) => e);
    expect((missing as McpLayerError).toJsonRpc()).toEqual({
      code: -32602,
      message: 'No item omega',
      data: { uri: 'test://items/omega' },
    });
    const broken = await layer.readResource('test://broken').catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(McpLayerError);
    expect((broken as McpLayerError).toJsonRpc()).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('applies the policy check: a denial raises -31001 and a rate limit -31029', async () => {
    const denied = testLayer({ policy: new RecordingPolicy({ denied: ['status'] }) });
    await expect(denied.readResource('test://status')).rejects.toBeInstanceOf(AccessDeniedError);
    const limited = testLayer({ policy: new RecordingPolicy({ limited: ['status'] }) });
    await expect(limited.readResource('test://status')).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('passes resource calls through middleware with kind resource, the URI as name and variables as arguments', async () => {
    const seen: unknown[] = [];
    const layer = testLayer({
      middleware: [
        async (info, next) => {
          seen.push({ kind: info.kind, name: info.name, arguments: info.arguments });
          return next(info);
        },
      ],
    });
    await layer.readResource('test://items/beta');
    expect(seen).toEqual([{ kind: 'resource', name: 'test://items/beta', arguments: { id: 'beta' } }]);
  });
});

describe('prompts/get (section 4.3)', () => {
  it('turns a string into one user message and transforms it', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const result = await layer.getPrompt('greet', { who: 'ann', tone: 'warm' });
    expect(result.toWire()).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello ann (warm), [REDACTED]' } }],
    });
  });

  it('transforms embedded text resources in prompt messages', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    const result = await layer.getPrompt('investigate', { ref: 'alpha' });
    expect(result.messages.map((m) => m.content.type)).toEqual(['text', 'resource']);
    expect(result.toWire().messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Investigate alpha' } },
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'test://items/alpha', text: 'detail [REDACTED]' } },
      },
    ]);
  });

  it('missing required arguments raise InvalidArgumentsError; an empty string counts as missing', async () => {
    const layer = testLayer();
    for (const args of [{}, { who: '' }]) {
      const error = await layer.getPrompt('greet', args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentsError);
      expect((error as InvalidArgumentsError).toJsonRpc()).toEqual({
        code: -32602,
        message: 'Missing required prompt arguments: who',
        data: { missing: ['who'] },
      });
    }
  });

  it('only declared arguments reach the handler, after the input pipeline', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ input: new ReversingPipeline() }) });
    const result = await layer.getPrompt('greet', { who: 'alias-bob', extra: 'ignored' });
    expect(result.messages[0]!.content).toEqual({ type: 'text', text: 'Hello real-bob, secret-greeting' });
  });

  it('unknown and hidden prompts raise NotFoundError; denials raise -31001', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ hidden: ['investigate'], denied: ['greet'] }) });
    await expect(layer.getPrompt('investigate', { ref: 'x' })).rejects.toThrow('Unknown prompt: investigate');
    await expect(layer.getPrompt('nope')).rejects.toMatchObject({ code: -32602, data: { name: 'nope' } });
    await expect(layer.getPrompt('greet', { who: 'x' })).rejects.toMatchObject({
      code: -31001,
      message: "Access to prompt 'greet' denied: category 'prompts' denied by policy 'doc-demo'",
    });
  });
});

describe('completion/complete (section 4.3 and MCP_INTERNALS 4.9)', () => {
  it('completes template variables by substring and prompt arguments by prefix', async () => {
    const layer = testLayer();
    expect(
      await layer.complete({ type: 'ref/resource', uri: 'test://items/{id}' }, { name: 'id', value: 'alp' }),
    ).toEqual({
      values: ['alpha', 'alphabet'],
      total: 2,
      hasMore: false,
    });
    expect(await layer.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'who', value: 'al' })).toEqual(
      {
        values: ['alice', 'alfred'],
        total: 2,
        hasMore: false,
      },
    );
  });

  it('caps values at 100 with total and hasMore', async () => {
    const layer = testLayer();
    for (let i = 0; i < 150; i++) layer.app.items[`n${i}`] = String(i);
    const result = await layer.complete(
      { type: 'ref/resource', uri: 'test://items/{id}' },
      { name: 'id', value: 'n' },
    );
    expect(result.values).toHaveLength(100);
    expect(result.total).toBe(150);
    expect(result.hasMore).toBe(true);
  });

  it('answers empty values for unknown refs, unknown arguments and hidden primitives', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ hidden: ['greet'] }) });
    const none = { values: [], total: 0, hasMore: false };
    expect(await layer.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'who', value: '' })).toEqual(
      none,
    );
    expect(await layer.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'who', value: '' })).toEqual(
      none,
    );
    expect(
      await layer.complete({ type: 'ref/resource', uri: 'test://items/{id}' }, { name: 'zzz', value: '' }),
    ).toEqual(none);
  });

  it('a failing completion function gives empty values; a denial is raised', async () => {
    const layer = testLayer();
    layer.app.items = null as never;
    expect(
      await layer.complete({ type: 'ref/resource', uri: 'test://items/{id}' }, { name: 'id', value: 'a' }),
    ).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
    const denied = testLayer({ policy: new RecordingPolicy({ denied: ['greet'] }) });
    await expect(
      denied.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'who', value: 'a' }),
    ).rejects.toBeInstanceOf(AccessDeniedError);
  });

  it('runs through middleware as kind completion and through the output pipeline value by value', async () => {
    const seen: unknown[] = [];
    const layer = testLayer({
      policy: new RecordingPolicy({ output: new MaskingPipeline() }),
      middleware: [
        async (info, next) => {
          seen.push({ kind: info.kind, name: info.name, arguments: info.arguments });
          return next(info);
        },
      ],
    });
    layer.app.items['secret-zone'] = 'z';
    const result = await layer.complete(
      { type: 'ref/resource', uri: 'test://items/{id}' },
      { name: 'id', value: 'zone' },
      { contextArguments: { other: '1' }, principal: Principal.local() },
    );
    expect(result.values).toEqual(['[REDACTED]']);
    expect(seen).toEqual([
      {
        kind: 'completion',
        name: 'test://items/{id}',
        arguments: { argument: 'id', value: 'zone', context: { other: '1' } },
      },
    ]);
  });
});
