import { describe, expect, it } from 'vitest';
import { Layer, type PipelineRun, type PolicyPort, Registry, type TransformPipeline } from '../src/index.js';

/** Replaces every string with its upper-case form, so a transformed value is easy to recognise. */
const upper: TransformPipeline = {
  isEmpty: false,
  run(value: unknown): PipelineRun {
    const walk = (v: unknown): unknown =>
      typeof v === 'string'
        ? v.toUpperCase()
        : Array.isArray(v)
          ? v.map(walk)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
            : v;
    return { value: walk(value), report: {} };
  },
};

function policy(pipeline: TransformPipeline | undefined): PolicyPort {
  return {
    name: 'test',
    isAllowed: () => true,
    checkCall: () => {},
    outputPipeline: () => pipeline,
    inputPipeline: () => undefined,
  };
}

function layerWith(pipeline: TransformPipeline | undefined): Layer {
  const registry = new Registry();
  registry.tool({
    name: 'write_copy',
    description: 'Returns what the caller would be shown of a value it does not return directly.',
    input: {},
    handler: async (ctx) => ({
      active: ctx.transformsOutput,
      shown: (await ctx.forCaller({ name: 'web-1', tags: ['prod'] })) as Record<string, unknown>,
    }),
  });
  return new Layer({ registry, policy: policy(pipeline) });
}

describe('ToolContext.forCaller', () => {
  it("applies the call's output pipeline to a value the handler hands over another way", async () => {
    const result = await layerWith(upper).callTool('write_copy', {});
    // The result itself goes through the pipeline too, which upper-cases the shown copy again.
    expect(result.structured).toEqual({ active: true, shown: { name: 'WEB-1', tags: ['PROD'] } });
  });

  it('returns the value unchanged and reports no transforms when the policy has none', async () => {
    const result = await layerWith(undefined).callTool('write_copy', {});
    expect(result.structured).toEqual({ active: false, shown: { name: 'web-1', tags: ['prod'] } });
  });
});
