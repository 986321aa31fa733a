import { spawnSync } from 'node:child_process';
import { writeSync } from 'node:fs';
/** The small registry every transport test serves: echo, boom, slow, noisy, touch, a resource, a template, a prompt. */
import { createLogger, Layer, type LayerOptions, NotFoundError, Registry } from '@cloudg/core';
import * as z from 'zod';

export function buildRegistry(): Registry {
  const reg = new Registry();
  reg.tool({
    name: 'echo',
    description: 'Echo the text back.',
    category: 'test',
    input: { text: z.string() },
    handler: (_ctx, args) => ({ text: args.text }),
  });
  reg.tool({
    name: 'boom',
    description: 'Always fails.',
    category: 'test',
    handler: () => {
      throw new Error('kaboom');
    },
  });
  reg.tool({
    name: 'slow',
    description: 'Waits, reporting progress, until done or cancelled.',
    category: 'test',
    input: { seconds: z.number().min(0).max(30).default(1) },
    handler: async (ctx, args) => {
      await ctx.reportProgress(0, 1, 'started');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, args.seconds * 1000);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            slowAborted.count += 1;
            reject(ctx.signal.reason);
          },
          { once: true },
        );
      });
      await ctx.reportProgress(1, 1, 'done');
      return { slept: args.seconds };
    },
  });
  reg.tool({
    name: 'noisy',
    description: 'Logs and reports progress.',
    category: 'test',
    handler: async (ctx) => {
      await ctx.log('debug', 'a debug line');
      await ctx.log('info', { step: 'one' });
      await ctx.log('error', 'an error line', 'noisy');
      await ctx.reportProgress(1, 2, 'half');
      await ctx.reportProgress(2, 2, 'all');
      return { ok: true };
    },
  });
  reg.tool({
    name: 'shout',
    description: 'Writes to stdout, as careless handlers and libraries do.',
    category: 'test',
    handler: () => {
      // Both must end up on stderr, never on the protocol stream.
      console.log('console.log from a handler');
      process.stdout.write('process.stdout.write from a handler\n');
      return { shouted: true };
    },
  });
  reg.tool({
    name: 'shout_fd',
    description:
      'Writes to descriptor 1 directly and through a child process, which no stream patch can catch.',
    category: 'test',
    handler: () => {
      writeSync(1, 'fs.writeSync(1) from a handler\n');
      spawnSync(process.execPath, ['-e', 'console.log("a child process inheriting stdout")'], {
        stdio: 'inherit',
      });
      return { shouted: true };
    },
  });
  reg.tool({
    name: 'whoami',
    description: 'The caller, as the layer sees it.',
    category: 'test',
    handler: (ctx) => ctx.principal.toJSON(),
  });
  reg.tool({
    name: 'touch',
    description: 'Fires change events.',
    category: 'test',
    input: { kind: z.enum(['tools', 'prompts', 'resources', 'resource']), uri: z.string().optional() },
    handler: (ctx, args) => {
      ctx.layer.notifyChange(args.kind, args.uri);
      return { fired: args.kind };
    },
  });
  reg.resource({
    uri: 'test://status',
    name: 'status',
    description: 'Server status.',
    category: 'test',
    handler: () => ({ status: 'ok' }),
  });
  reg.resourceTemplate({
    uriTemplate: 'test://items/{id}',
    name: 'item',
    description: 'One item.',
    category: 'test',
    completions: {
      id: (_ctx, partial) => ['alpha', 'beta', 'gamma'].filter((v) => v.startsWith(partial)),
    },
    handler: (_ctx, vars) => {
      if (vars.id === 'omega') throw new NotFoundError('No item omega');
      return { id: vars.id, name: `item ${vars.id}` };
    },
  });
  reg.prompt({
    name: 'greet',
    description: 'Greets someone.',
    category: 'test',
    arguments: [{ name: 'name', required: true, description: 'Who to greet' }],
    handler: (_ctx, args) => `Hello, ${args.name}!`,
  });
  return reg;
}

/** How many times `slow` saw its signal abort (cancellation reached the handler). */
export const slowAborted = { count: 0 };

export function buildLayer(options: LayerOptions<unknown> = {}): Layer<unknown> {
  return new Layer({
    registry: buildRegistry(),
    name: 'cloudg',
    version: '0.1.0',
    // As the catalog describes itself; core's own default is domain-free.
    instructions: 'cloudg exposes a cloud security inventory. Start with workspace_status.',
    logger: createLogger({ level: 'silent' }),
    ...options,
  });
}
