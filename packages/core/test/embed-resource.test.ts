/**
 * `ctx.embedResource(uri)`: a prompt that embeds a resource reads it through the layer as its
 * caller, and the layer hands the contents on without running the output pipeline a second time.
 */
import { describe, expect, it } from 'vitest';
import {
  type EmbeddedResource,
  Layer,
  type Middleware,
  type PipelineRun,
  Principal,
  PromptResult,
  Registry,
  ToolResult,
  type TransformPipeline,
} from '../src/index.js';
import { RecordingPolicy } from './helpers.js';

/** Wraps every string it sees in «…», so a second run shows as ««…»». */
class WrappingPipeline implements TransformPipeline {
  readonly isEmpty = false;
  run(value: unknown): PipelineRun {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return v.startsWith('cloudg://') ? v : `«${v}»`;
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return { value: walk(value), report: {} };
  }
}

function registry(): Registry {
  const reg = new Registry();
  reg.resource({ uri: 'demo://note', name: 'note', category: 'demo', handler: () => ({ note: 'hello' }) });
  reg.prompt({
    name: 'embeds',
    category: 'demo',
    handler: async (ctx) => {
      const blocks = await ctx.embedResource('demo://note');
      return new PromptResult(blocks.map((content) => ({ role: 'user' as const, content })));
    },
  });
  reg.prompt({
    name: 'copies',
    category: 'demo',
    handler: async (ctx) => {
      const [block] = await ctx.embedResource('demo://note');
      // A copy is not what the layer read: it goes through the prompt's pipeline again.
      return new PromptResult([{ role: 'user', content: { ...(block as EmbeddedResource) } }]);
    },
  });
  reg.tool({
    name: 'embeds_tool',
    category: 'demo',
    handler: async (ctx) => new ToolResult({ content: await ctx.embedResource('demo://note') }),
  });
  return reg;
}

function textOf(result: PromptResult): string {
  const content = result.messages[0]?.content as EmbeddedResource;
  return (content.resource as { text: string }).text;
}

describe('ctx.embedResource', () => {
  it('embeds exactly what a resources/read returns to the caller, transformed once', async () => {
    const policy = new RecordingPolicy({ output: new WrappingPipeline() });
    const layer = new Layer({ registry: registry(), policy });
    const [direct] = await layer.readResource('demo://note');
    const prompt = await layer.getPrompt('embeds', {});
    expect(textOf(prompt)).toBe((direct as { text: string }).text);
    expect(textOf(prompt)).toBe('{"note":"«hello»"}');
  });

  it('a tool result embeds it transformed once too', async () => {
    const layer = new Layer({
      registry: registry(),
      policy: new RecordingPolicy({ output: new WrappingPipeline() }),
    });
    const result = await layer.callTool('embeds_tool', {});
    const block = result.content[0] as EmbeddedResource;
    expect((block.resource as { text: string }).text).toBe('{"note":"«hello»"}');
  });

  it('is a request of its own: the policy checks it and middleware sees it, as the caller', async () => {
    const policy = new RecordingPolicy();
    const seen: string[] = [];
    const watch: Middleware = async (info, next) => {
      seen.push(`${info.kind}:${info.name}:${info.principal.id}`);
      return next(info);
    };
    const layer = new Layer({ registry: registry(), policy, middleware: [watch] });
    const ann = new Principal({ id: 'ann', roles: ['analyst'] });
    await layer.getPrompt('embeds', {}, { principal: ann });
    expect(seen).toEqual(['prompt:embeds:ann', 'resource:demo://note:ann']);
    expect(policy.checks.map((c) => `${c.call.kind}:${c.spec}`)).toEqual(['prompt:embeds', 'resource:note']);
  });

  it('fails as the read would when the policy refuses it', async () => {
    const layer = new Layer({ registry: registry(), policy: new RecordingPolicy({ denied: ['note'] }) });
    await expect(layer.getPrompt('embeds', {})).rejects.toMatchObject({ code: -31001 });
    const hidden = new Layer({ registry: registry(), policy: new RecordingPolicy({ hidden: ['note'] }) });
    await expect(hidden.getPrompt('embeds', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('a copied block loses the mark and is transformed again (never less than once)', async () => {
    const layer = new Layer({
      registry: registry(),
      policy: new RecordingPolicy({ output: new WrappingPipeline() }),
    });
    const prompt = await layer.getPrompt('copies', {});
    expect(textOf(prompt)).toBe('«{"note":"«hello»"}»');
  });
});
