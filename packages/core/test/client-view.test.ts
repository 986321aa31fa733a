/**
 * Everything a client reads passes through the caller's output pipeline: result links (their
 * names and titles too), log notifications and progress messages. And what pipelines report is
 * merged without turning descriptive figures (a priority) into sums.
 */
import { describe, expect, it } from 'vitest';
import {
  defineTool,
  type IdentifierSource,
  Layer,
  type PipelineContext,
  type PipelineRun,
  Registry,
  ToolResult,
  type TransformPipeline,
  textContent,
} from '../src/index.js';
import { RecordingPolicy } from './helpers.js';

/** Replaces the whole word `bastion` with `res-1`, and reports a priority on every run. */
class AliasPipeline implements TransformPipeline {
  readonly isEmpty = false;
  readonly contexts: PipelineContext[] = [];
  run(value: unknown, context: PipelineContext): PipelineRun {
    this.contexts.push(context);
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return v === 'bastion' ? 'res-1' : v.replace(/\/bastion(?=\/|$)/g, '/res-1');
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return { value: walk(value), report: { content_annotations: { priority: 0.7 }, redacted: { x: 1 } } };
  }
}

function layerWith(pipeline: AliasPipeline, identifiers?: IdentifierSource): Layer {
  const registry = new Registry();
  registry.add(
    defineTool({
      name: 'show',
      description: 'Shows an asset with links, a log line and progress.',
      input: {},
      handler: async (ctx) => {
        ctx.link('cloudg://assets/bastion', 'bastion', { title: 'EC2 bastion' });
        ctx.link('cloudg://assets/bastion/neighbors', 'bastion neighbors');
        await ctx.log('info', { message: 'looked at bastion', asset: 'bastion' });
        await ctx.reportProgress(1, 2, 'bastion');
        return new ToolResult({ content: [textContent('bastion'), textContent('bastion is up')] });
      },
    }),
  );
  return new Layer({
    registry,
    policy: new RecordingPolicy({ output: pipeline }),
    ...(identifiers ? { identifiers } : {}),
  });
}

describe('what a client reads outside the result text', () => {
  it('link names, titles and the names inside them follow the replaced URI', async () => {
    const result = await layerWith(new AliasPipeline()).callTool('show', {});
    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links).toEqual([
      expect.objectContaining({ uri: 'cloudg://assets/res-1', name: 'res-1', title: 'EC2 res-1' }),
      expect.objectContaining({ uri: 'cloudg://assets/res-1/neighbors', name: 'res-1 neighbors' }),
    ]);
  });

  it('log notifications and progress messages pass through the output pipeline', async () => {
    const logs: unknown[] = [];
    const progress: Array<string | undefined> = [];
    await layerWith(new AliasPipeline()).callTool(
      'show',
      {},
      {
        onLog: (_level, data) => {
          logs.push(data);
        },
        onProgress: (_p, _t, message) => {
          progress.push(message);
        },
      },
    );
    expect(logs).toEqual([{ message: 'looked at bastion', asset: 'res-1' }]);
    expect(progress).toEqual(['res-1']);
  });

  it('a priority reported by several runs stays in range; counts still add up', async () => {
    const result = await layerWith(new AliasPipeline()).callTool('show', {});
    const report = result.meta['cloudg/transforms'] as {
      content_annotations: { priority: number };
      redacted: { x: number };
    };
    expect(report.content_annotations.priority).toBe(0.7);
    expect(report.redacted.x).toBeGreaterThan(1);
  });

  it('pipelines see the layer’s identifiers and one request object for the whole call', async () => {
    const pipeline = new AliasPipeline();
    const identifiers: IdentifierSource = {
      identifierRevision: 1,
      knownIdentifiers: () => [['bastion', 'resource_name']],
    };
    await layerWith(pipeline, identifiers).callTool('show', {});
    expect(pipeline.contexts.length).toBeGreaterThan(2);
    expect(new Set(pipeline.contexts.map((c) => c.request)).size).toBe(1);
    expect(pipeline.contexts.every((c) => c.identifiers === identifiers)).toBe(true);
  });
});
