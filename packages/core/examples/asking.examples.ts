// A tool that asks the person before it acts. The README's "Asking the client" shows the region
// `confirm`; test/asking.test.ts runs `asking()` with a client that declines, then accepts.

import { type ClientPort, Layer, Registry } from '@cloudg/core';

export async function asking(client: ClientPort): Promise<unknown> {
  const registry = new Registry();
  let purges = 0;
  // #region confirm
  registry.tool({
    name: 'purge_cache',
    description: 'Empties the cache after the person confirms.',
    input: {},
    handler: async (ctx) => {
      // Ask first: in the 2026 era the handler runs again from here with the answer.
      if (!(await ctx.confirm('Empty the cache?'))) return { purged: false };
      purges += 1; // the side effect, only after the answer
      return { purged: true };
    },
  });
  // #endregion confirm
  const layer = new Layer({ registry });
  const result = await layer.callTool('purge_cache', {}, { client });
  return { result: result.structured, purges };
}
