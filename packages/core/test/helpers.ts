import * as z from 'zod';
import {
  AccessDeniedError,
  type AnySpec,
  type CallCheck,
  type CallKind,
  InvalidArgumentsError,
  Layer,
  type LayerOptions,
  type McpLayerError,
  NotFoundError,
  type PipelineRun,
  type PolicyPort,
  type Principal,
  PromptResult,
  RateLimitedError,
  Registry,
  ToolResult,
  type TransformPipeline,
  textContent,
} from '../src/index.js';

/** Replaces `secret-…` words with `[REDACTED]` and `acct-…` with `acct-XXXX`; counts what it did. */
export class MaskingPipeline implements TransformPipeline {
  readonly isEmpty = false;
  readonly seen: unknown[] = [];

  run(value: unknown): PipelineRun {
    this.seen.push(value);
    let count = 0;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        return v.replace(/secret-\w+/g, () => {
          count += 1;
          return '[REDACTED]';
        });
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    const out = walk(value);
    return { value: out, report: count > 0 ? { redacted: { secret: count } } : {} };
  }
}

/** Reverses `alias-X` to `real-X` and refuses arguments holding `password=`. */
export class ReversingPipeline implements TransformPipeline {
  readonly isEmpty = false;
  run(value: unknown): PipelineRun {
    const text = JSON.stringify(value);
    if (text.includes('password=')) {
      throw new InvalidArgumentsError('Argument refused: it looks like it contains a secret', {
        data: { entity: 'password' },
      });
    }
    return { value: JSON.parse(text.replace(/alias-(\w+)/g, 'real-$1')), report: {} };
  }
}

export interface RecordingPolicyOptions {
  hidden?: string[];
  denied?: string[];
  limited?: string[];
  output?: TransformPipeline;
  input?: TransformPipeline;
}

/** A hand-written policy: hides, denies or rate-limits named primitives and records what it saw. */
export class RecordingPolicy implements PolicyPort {
  readonly name = 'doc-demo';
  readonly checks: Array<{ spec: string; call: CallCheck }> = [];
  readonly hiddenCalls: Array<{ kind: CallKind; name: string }> = [];
  readonly rejections: Array<{ spec: string; code: number | string }> = [];

  constructor(private readonly options: RecordingPolicyOptions = {}) {}

  isAllowed(spec: AnySpec): boolean {
    return !this.options.hidden?.includes(spec.name);
  }

  checkCall(spec: AnySpec, _principal: Principal, call: CallCheck): void {
    this.checks.push({ spec: spec.name, call });
    if (this.options.denied?.includes(spec.name)) {
      const reason = `category '${spec.category}' denied by policy '${this.name}'`;
      throw new AccessDeniedError(`Access to ${spec.kind} '${spec.name}' denied: ${reason}`, {
        data: { policy: this.name, reason },
      });
    }
    if (this.options.limited?.includes(spec.name)) {
      throw new RateLimitedError(`Rate limit exceeded for tool '${spec.name}' (1/minute); retry in 60.0s`, {
        data: { retry_after: 60.0, limit: '1/minute', scope: 'principal' },
      });
    }
  }

  outputPipeline(): TransformPipeline | undefined {
    return this.options.output;
  }

  inputPipeline(): TransformPipeline | undefined {
    return this.options.input;
  }

  recordHidden(kind: CallKind, name: string): void {
    this.hiddenCalls.push({ kind, name });
  }

  recordRejection(spec: AnySpec, _principal: Principal, error: McpLayerError): void {
    this.rejections.push({ spec: spec.name, code: error.code });
  }
}

export interface TestApp {
  items: Record<string, string>;
  slowTicks: number;
}

/** A small registry exercising every kind of primitive and every failure mode. */
export function testRegistry(): Registry<TestApp> {
  const reg = new Registry<TestApp>();
  reg.tool({
    name: 'echo',
    description: 'Echo the text back.',
    category: 'test',
    input: { text: z.string(), times: z.number().int().min(1).max(5).default(1) },
    handler: (_ctx, args) => ({ echo: args.text.repeat(args.times) }),
  });
  reg.tool({
    name: 'find_assets',
    title: 'Find assets',
    category: 'inventory',
    input: z.object({
      query: z.string().optional(),
      limit: z.number().int().min(1).max(500).default(50),
      internet_exposed: z.boolean().optional(),
    }),
    handler: (_ctx, args) => ({
      total: 2,
      limit: args.limit,
      query: args.query ?? null,
      exposed: args.internet_exposed ?? null,
    }),
  });
  reg.tool({
    name: 'boom',
    category: 'test',
    handler: () => {
      const error = new Error('could not reach arn:aws:iam::123456789012:role/Deploy secret-token');
      error.name = 'RuntimeError';
      throw error;
    },
  });
  reg.tool({
    name: 'reset',
    category: 'admin',
    capabilities: ['write_state'],
    handler: () => ({ reset: true }),
  });
  reg.tool({
    name: 'missing_thing',
    category: 'test',
    handler: () => {
      throw new NotFoundError('No asset matches the reference in this dataset.', {
        data: { value: 'secret-x', suggestions: [] },
      });
    },
  });
  reg.tool({
    name: 'slow',
    category: 'test',
    timeoutSeconds: 0.1,
    input: { seconds: z.number().min(0).max(10).default(1) },
    handler: async (ctx, args) => {
      const until = Date.now() + args.seconds * 1000;
      while (Date.now() < until) {
        ctx.throwIfAborted();
        ctx.app.slowTicks += 1;
        await new Promise((r) => setTimeout(r, 10));
      }
      return { done: true };
    },
  });
  reg.tool({
    name: 'numbers',
    category: 'test',
    handler: () => [1, 2, 3],
  });
  reg.tool({
    name: 'big',
    category: 'test',
    input: { size: z.number().int().default(1000) },
    handler: (_ctx, args) => ({ data: 'x'.repeat(args.size) }),
  });
  reg.tool({
    name: 'custom_result',
    category: 'test',
    handler: (ctx) => {
      ctx.link('test://items/alpha', 'alpha secret-link');
      return new ToolResult({
        content: [
          textContent('two assets, secret-one'),
          {
            type: 'resource',
            resource: { uri: 'test://items/beta', mimeType: 'text/plain', text: 'beta secret-two' },
          },
          { type: 'image', data: 'c2VjcmV0LWltZw==', mimeType: 'image/png' },
        ],
        structured: { count: 2, note: 'secret-three' },
        meta: { 'example.com/label': 'secret-four' },
      });
    },
  });
  reg.tool({
    name: 'progress',
    category: 'test',
    input: { steps: z.number().int().default(2) },
    handler: async (ctx, args) => {
      for (let i = 1; i <= args.steps; i++) {
        await ctx.reportProgress(i, args.steps, `step ${i}`);
        await ctx.reportProgress(i, args.steps, `step ${i} again`);
      }
      await ctx.log('notice', { done: args.steps });
      return { steps: args.steps };
    },
  });
  reg.resource({
    uri: 'test://status',
    name: 'status',
    description: 'Status as JSON.',
    category: 'test',
    handler: () => ({ ok: true, token: 'secret-status' }),
  });
  reg.resource({
    uri: 'test://readme',
    name: 'readme',
    mimeType: 'text/plain',
    category: 'test',
    handler: () => 'read me secret-readme',
  });
  reg.resource({
    uri: 'test://logo',
    name: 'logo',
    mimeType: 'image/png',
    category: 'test',
    handler: () => new Uint8Array([1, 2, 3]),
  });
  reg.resource({
    uri: 'test://broken',
    name: 'broken',
    category: 'test',
    handler: () => {
      throw new TypeError('bad state');
    },
  });
  reg.resourceTemplate({
    uriTemplate: 'test://items/{id}',
    name: 'item',
    category: 'test',
    completions: {
      id: (ctx, partial) => Object.keys(ctx.app.items).filter((k) => k.includes(partial)),
    },
    handler: (ctx, vars) => {
      const item = ctx.app.items[vars.id!];
      if (item === undefined)
        throw new NotFoundError(`No item ${vars.id}`, { data: { uri: `test://items/${vars.id}` } });
      return { id: vars.id, value: item };
    },
  });
  reg.resourceTemplate({
    uriTemplate: 'test://items/{+ref}/detail',
    name: 'item_detail',
    category: 'test',
    handler: (_ctx, vars) => ({ detail: vars.ref }),
  });
  reg.prompt({
    name: 'greet',
    description: 'Greet someone.',
    category: 'prompts',
    arguments: [
      {
        name: 'who',
        required: true,
        description: 'Who to greet',
        completion: (_c, p) => ['alice', 'bob', 'alfred'].filter((n) => n.startsWith(p)),
      },
      { name: 'tone', required: false },
    ],
    handler: (_ctx, args) => `Hello ${args.who}${args.tone ? ` (${args.tone})` : ''}, secret-greeting`,
  });
  reg.prompt({
    name: 'investigate',
    category: 'prompts',
    arguments: [{ name: 'ref', required: true }],
    handler: (_ctx, args) =>
      new PromptResult([
        { role: 'user', content: textContent(`Investigate ${args.ref}`) },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: `test://items/${args.ref}`, text: 'detail secret-detail' },
          },
        },
      ]),
  });
  return reg;
}

export function testLayer(options: Partial<LayerOptions<TestApp>> = {}): Layer<TestApp> {
  return new Layer<TestApp>({
    app: { items: { alpha: 'A', beta: 'B', alphabet: 'AB' }, slowTicks: 0 },
    registry: testRegistry(),
    ...options,
  });
}

/** A silent pino logger for tests that expect errors to be logged. */
export { pino } from 'pino';
