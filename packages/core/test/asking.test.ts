import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  type ClientPort,
  type ClientQuestion,
  InputRequiredSignal,
  type JsonValue,
  Layer,
  MissingClientCapabilityError,
  type PipelineRun,
  type PolicyPort,
  Registry,
  type TransformPipeline,
} from '../src/index.js';

/** Upper-cases every string: a value that went through it is easy to recognise. */
const upper: TransformPipeline = {
  isEmpty: false,
  run(value: unknown): PipelineRun {
    const walk = (v: unknown): unknown =>
      typeof v === 'string'
        ? v.toUpperCase()
        : v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
    return { value: walk(value), report: {} };
  },
};

function layerWith(
  done: string[],
  pipelines: { output?: TransformPipeline; input?: TransformPipeline } = {},
) {
  const registry = new Registry();
  registry.tool({
    name: 'purge',
    description: 'Asks for confirmation, then acts.',
    input: {},
    handler: async (ctx) => {
      if (!(await ctx.confirm('Purge web-1?'))) return { purged: false };
      done.push('purged');
      return { purged: true };
    },
  });
  registry.tool({
    name: 'ask_name',
    description: 'Asks for a name and returns it.',
    input: {},
    handler: async (ctx) => {
      const answer = await ctx.elicit({
        message: 'Which asset?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { name: answer.content?.name ?? null };
    },
  });
  const policy: PolicyPort = {
    name: 'test',
    isAllowed: () => true,
    checkCall: () => {},
    outputPipeline: () => pipelines.output,
    inputPipeline: () => pipelines.input,
  };
  return new Layer({ registry, policy });
}

/** A handshake-era style port: answers every question at once with `answer`. */
function port(answer: (q: ClientQuestion) => JsonValue, asked: ClientQuestion[] = []): ClientPort {
  return {
    supports: () => true,
    ask: async (questions) => {
      asked.push(...Object.values(questions));
      return Object.fromEntries(Object.entries(questions).map(([k, q]) => [k, answer(q)]));
    },
  };
}

describe('ToolContext asking the client', () => {
  it('runs the action only when the person accepts the confirmation', async () => {
    const done: string[] = [];
    const layer = layerWith(done);
    const accepted = await layer.callTool(
      'purge',
      {},
      { client: port(() => ({ action: 'accept', content: { confirm: true } })) },
    );
    expect(accepted.structured).toEqual({ purged: true });
    const declined = await layer.callTool('purge', {}, { client: port(() => ({ action: 'decline' })) });
    expect(declined.structured).toEqual({ purged: false });
    expect(done).toEqual(['purged']);
  });

  it('refuses with -32021 and runs nothing when the client cannot elicit', async () => {
    const done: string[] = [];
    const layer = layerWith(done);
    const call = layer.callTool('purge', {}, { client: { supports: () => false, ask: async () => ({}) } });
    await expect(call).rejects.toBeInstanceOf(MissingClientCapabilityError);
    await expect(layer.callTool('purge', {})).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(done).toEqual([]);
  });

  it('lets an input-required signal end the attempt instead of becoming an error result', async () => {
    const layer = layerWith([]);
    const mrtr: ClientPort = {
      supports: () => true,
      ask: async (questions) => {
        throw new InputRequiredSignal(questions);
      },
    };
    await expect(layer.callTool('purge', {}, { client: mrtr })).rejects.toMatchObject({
      requests: { 'confirm-1': { method: 'elicitation/create' } },
    });
  });

  it('shows the question through the output pipeline and restores the answer through the input pipeline', async () => {
    const asked: ClientQuestion[] = [];
    const layer = layerWith([], { output: upper, input: upper });
    const result = await layer.callTool(
      'ask_name',
      {},
      {
        client: port(() => ({ action: 'accept', content: { name: 'web' } }), asked),
      },
    );
    expect(asked[0]?.params).toMatchObject({ message: 'WHICH ASSET?' });
    expect(result.structured).toEqual({ name: 'WEB' });
  });

  it('refuses a malformed answer with -32602 in the tool result', async () => {
    const layer = layerWith([]);
    const result = await layer.callTool('ask_name', {}, { client: port(() => ({ action: 'maybe' })) });
    expect(result.isError).toBe(true);
  });

  it('stops waiting when the call is cancelled', async () => {
    const layer = layerWith([]);
    const controller = new AbortController();
    const waiting: ClientPort = {
      supports: () => true,
      ask: (_q, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    };
    const call = layer.callTool('ask_name', {}, { client: waiting, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await call;
    expect(result.isError).toBe(true);
  });
});

describe('the README example', () => {
  it('purges only after the person accepts', async () => {
    const { asking } = await import('../examples/asking.examples.js');
    expect(await asking(port(() => ({ action: 'decline' })))).toEqual({
      result: { purged: false },
      purges: 0,
    });
    expect(await asking(port(() => ({ action: 'accept', content: { confirm: true } })))).toEqual({
      result: { purged: true },
      purges: 1,
    });
  });
});

describe('a policy that asks for confirmation', () => {
  function confirmingLayer(done: string[]) {
    const registry = new Registry();
    registry.tool({
      name: 'collect',
      description: 'Collects, or collects again at once with force.',
      input: { force: z.boolean().default(false) },
      handler: (_ctx, args) => {
        done.push(args.force ? 'forced' : 'normal');
        return { ok: true };
      },
    });
    const policy: PolicyPort = {
      name: 'confirming',
      isAllowed: () => true,
      checkCall: () => {},
      outputPipeline: () => undefined,
      inputPipeline: () => undefined,
      confirmation: (_spec, _principal, call) =>
        call.arguments.force === true ? `Run ${call.name} with force?` : undefined,
    };
    return new Layer({ registry, policy });
  }

  it('asks before a forced call, runs it when accepted and not when declined', async () => {
    const done: string[] = [];
    const layer = confirmingLayer(done);
    const asked: ClientQuestion[] = [];
    const declined = await layer.callTool(
      'collect',
      { force: true },
      { client: port(() => ({ action: 'decline' }), asked) },
    );
    expect(declined.isError).toBe(true);
    expect(declined.meta['cloudg/error_code']).toBe('declined');
    expect(done).toEqual([]);
    await layer.callTool('collect', { force: true }, { client: port(() => ({ action: 'accept' }), asked) });
    await layer.callTool('collect', {}, { client: port(() => ({ action: 'decline' }), asked) });
    expect(done).toEqual(['forced', 'normal']);
    expect(asked.map((q) => q.params)).toMatchObject([
      { message: 'Run collect with force?' },
      { message: 'Run collect with force?' },
    ]);
  });

  it('refuses a forced call from a client without elicitation with -32021', async () => {
    const done: string[] = [];
    await expect(confirmingLayer(done).callTool('collect', { force: true })).rejects.toMatchObject({
      code: -32021,
    });
    expect(done).toEqual([]);
  });
});
