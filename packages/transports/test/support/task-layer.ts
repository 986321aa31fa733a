/**
 * A layer whose tools run as tasks for a client that supports them: `crunch` works for a given
 * time and notes whether its signal stopped it, `wipe` asks the person first and wipes only when
 * they accept (its count of wipes is the side effect a test can look at), `quick` never becomes a
 * task. Used by the task tests in memory, over HTTP and over stdio.
 */
import { createLogger, Layer, type PolicyPort, Registry } from '@cloudg/core';
import * as z from 'zod';

export interface TaskState {
  /** Calls of `crunch` that ended because their signal was aborted. */
  stopped: number;
  wipes: number;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export function buildTaskLayer(
  state: TaskState = { stopped: 0, wipes: 0 },
  policy?: PolicyPort,
): Layer<TaskState> {
  const registry = new Registry<TaskState>();
  registry.tool({
    name: 'crunch',
    description:
      'Works for `ms` milliseconds on the alpha cluster, reporting progress; a task when the client takes tasks.',
    input: { ms: z.number().int().min(0) },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      await ctx.reportProgress(1, 2, 'halfway through alpha');
      try {
        await pause(args.ms, ctx.signal);
      } catch (error) {
        ctx.app.stopped += 1;
        throw error;
      }
      return { crunched: args.ms, cluster: 'alpha' };
    },
  });
  registry.tool({
    name: 'wipe',
    description: 'Wipes a disk once the person confirms; a task when the client takes tasks.',
    input: { disk: z.string() },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      if (!(await ctx.confirm(`Wipe ${args.disk}?`))) return { wiped: false, wipes: ctx.app.wipes };
      ctx.app.wipes += 1;
      return { wiped: true, wipes: ctx.app.wipes };
    },
  });
  registry.tool({
    name: 'quick',
    description: 'Answers at once; never a task.',
    handler: () => ({ quick: true }),
  });
  return new Layer({
    registry,
    app: state,
    logger: createLogger({ level: 'silent' }),
    ...(policy ? { policy } : {}),
  });
}
