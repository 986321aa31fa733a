/**
 * The fixture tools of the tasks extension's scenarios (`tasks-*`): tools that run as tasks for a
 * client that supports them, through the same `taskSupport` declaration and `ToolContext` calls
 * as any cloudg tool. Names and arguments are the ones the scenarios call.
 */
import { type Registry, ToolResult, textContent } from '@cloudg/core';
import * as z from 'zod';

const text = (value: string) => new ToolResult({ content: [textContent(value)] });

/** A wait that ends early, with the abort reason, when the call is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

const form = (message: string, properties: Record<string, { type: 'string' | 'boolean' }>) => ({
  message,
  requestedSchema: { type: 'object' as const, properties },
});

export function registerTaskFixtures(reg: Registry): void {
  reg.tool({
    name: 'greet',
    description: 'Greets someone; never a task.',
    category: 'conformance',
    input: { name: z.string() },
    handler: (_ctx, args) => text(`Hello, ${args.name}!`),
  });
  reg.tool({
    name: 'slow_compute',
    description: 'Works for the given number of seconds; a task when the client supports tasks.',
    category: 'conformance',
    input: { seconds: z.number().min(0).max(600), label: z.string().optional() },
    taskSupport: 'optional',
    timeoutSeconds: 0,
    handler: async (ctx, args) => {
      await pause(args.seconds * 1000, ctx.signal);
      return text(`Computed ${args.label ?? 'result'} in ${args.seconds} s`);
    },
  });
  reg.tool({
    name: 'failing_job',
    description: 'Runs only as a task, and ends with a tool error.',
    category: 'conformance',
    taskSupport: 'required',
    handler: async (ctx) => {
      await pause(500, ctx.signal);
      throw new Error('The job failed');
    },
  });
  reg.tool({
    name: 'protocol_error_job',
    description:
      "Fails at the protocol level: as a task it needs the client's roots, a capability the suite's client does not declare.",
    category: 'conformance',
    taskSupport: 'optional',
    handler: async (ctx) => {
      const roots = await ctx.listRoots();
      return text(`${roots.length} roots`);
    },
  });
  reg.tool({
    name: 'confirm_delete',
    description: 'Asks the person to confirm inside its task, then answers.',
    category: 'conformance',
    input: { filename: z.string() },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      const confirmed = await ctx.confirm(`Delete ${args.filename}?`);
      return text(confirmed ? `Deleted ${args.filename}` : `Kept ${args.filename}`);
    },
  });
  reg.tool({
    name: 'multi_input',
    description: 'Asks two questions at once inside its task.',
    category: 'conformance',
    taskSupport: 'optional',
    handler: async (ctx) => {
      const [name, go] = await Promise.all([
        ctx.elicit(form('Your name?', { name: { type: 'string' } })),
        ctx.elicit(form('Go ahead?', { confirm: { type: 'boolean' } })),
      ]);
      return text(`${String(name.content?.name ?? '')} ${go.action}`);
    },
  });
  reg.tool({
    name: 'test_tool_with_task',
    description: 'Asks for a name first (multi round-trip), then continues as a task.',
    category: 'conformance',
    taskSupport: 'required',
    taskStart: 'handler',
    handler: async (ctx) => {
      const answer = await ctx.elicit(form('What is your name?', { name: { type: 'string' } }), {
        key: 'user_name',
      });
      await ctx.startTask();
      return text(`Hello, ${String(answer.content?.name ?? 'stranger')}!`);
    },
  });
}
