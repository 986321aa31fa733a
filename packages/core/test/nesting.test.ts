/** Arguments nested beyond MAX_ARGUMENT_DEPTH are refused before anything walks them, and audited once. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH } from '../src/arguments/nesting.js';
import { AuditLogMiddleware, Layer, Registry } from '../src/index.js';

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

function layerWithAudit() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const registry = new Registry();
  let ran = 0;
  registry.tool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: (_ctx, args) => {
      ran += 1;
      return { keys: Object.keys(args) };
    },
  });
  registry.prompt({ name: 'ask', arguments: [{ name: 'topic' }], handler: () => 'hi' });
  const layer = new Layer({
    registry,
    middleware: [new AuditLogMiddleware({ stream, salt: 's' }).middleware],
  });
  return { layer, lines, ran: () => ran };
}

describe('argument nesting', () => {
  it('a tool call nested deeper than the limit is an invalid-arguments result, and the handler never runs', async () => {
    const { layer, lines, ran } = layerWithAudit();
    const result = await layer.callTool('echo', { deep: nested(100_000) });
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe(-32602);
    expect(result.content[0]).toMatchObject({
      text: `Invalid arguments: nested more than ${MAX_ARGUMENT_DEPTH} levels deep`,
    });
    expect(ran()).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: 'tool', name: 'echo', outcome: 'rejected' });
  });

  it('nesting up to the limit is accepted', async () => {
    const { layer, ran } = layerWithAudit();
    const result = await layer.callTool('echo', { deep: nested(MAX_ARGUMENT_DEPTH - 1) });
    expect(result.isError).toBe(false);
    expect(ran()).toBe(1);
  });

  it('a prompt nested too deeply is refused with -32602 and one audit line', async () => {
    const { layer, lines } = layerWithAudit();
    await expect(layer.getPrompt('ask', { topic: nested(500) })).rejects.toMatchObject({ code: -32602 });
    expect(lines).toHaveLength(1);
  });
});
