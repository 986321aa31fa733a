/**
 * A layer whose tools ask the client: `purge` asks for a confirmation and only then acts (its
 * count of purges is the side effect a test can look at), `summarise` borrows the client's model,
 * `where` lists the client's roots. Used by the asking tests over HTTP and stdio.
 */
import { createLogger, Layer, Registry } from '@cloudg/core';
import * as z from 'zod';

export interface AskingState {
  purges: string[];
}

export function buildAskingLayer(state: AskingState = { purges: [] }): Layer<AskingState> {
  const registry = new Registry<AskingState>();
  registry.tool({
    name: 'purge',
    description: 'Purges a cache after the person confirms.',
    input: { target: z.string() },
    handler: async (ctx, args) => {
      if (!(await ctx.confirm(`Purge ${args.target}?`)))
        return { purged: false, purges: ctx.app.purges.length };
      ctx.app.purges.push(args.target);
      return { purged: true, purges: ctx.app.purges.length };
    },
  });
  registry.tool({
    name: 'summarise',
    description: "Asks the client's model.",
    input: { text: z.string() },
    handler: async (ctx, args) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${args.text}` } }],
        maxTokens: 50,
      });
      return { model: answer.model, content: answer.content };
    },
  });
  registry.tool({
    name: 'where',
    description: "Lists the client's roots.",
    input: {},
    handler: async (ctx) => ({ roots: (await ctx.listRoots()).map((r) => r.uri) }),
  });
  return new Layer<AskingState>({ registry, app: state, logger: createLogger({ level: 'silent' }) });
}
