import { type ClientPort, Layer, Registry } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { load, silent } from './helpers.js';

/** A layer with a live-style tool whose `force` skips a cooldown, served under `policy`. */
function layerWith(policy: ReturnType<typeof load>, runs: string[]) {
  const registry = new Registry();
  registry.tool({
    name: 'collect_assets',
    description: 'Collects assets; force skips the cooldown.',
    input: { force: z.boolean().default(false) },
    handler: (_ctx, args) => {
      runs.push(args.force ? 'forced' : 'normal');
      return { collected: true };
    },
  });
  return new Layer({ registry, policy, logger: silent });
}

function client(action: 'accept' | 'decline', asked: string[]): ClientPort {
  return {
    supports: () => true,
    ask: async (questions) => {
      for (const q of Object.values(questions))
        asked.push(String((q.params as { message?: string }).message));
      return Object.fromEntries(Object.keys(questions).map((k) => [k, { action }]));
    },
  };
}

describe('policy confirm entries', () => {
  const policy = () =>
    load({ name: 'confirming', confirm: [{ tools: ['collect_*'], when_true: ['force'] }] });

  it('ask before a forced call and run it only when the person accepts', async () => {
    const runs: string[] = [];
    const asked: string[] = [];
    const layer = layerWith(policy(), runs);
    const declined = await layer.callTool(
      'collect_assets',
      { force: true },
      { client: client('decline', asked) },
    );
    expect(declined.meta['cloudg/error_code']).toBe('declined');
    expect(runs).toEqual([]);
    await layer.callTool('collect_assets', { force: true }, { client: client('accept', asked) });
    expect(runs).toEqual(['forced']);
    expect(asked).toEqual([
      'Run collect_assets with force? The policy asks you to confirm this call.',
      'Run collect_assets with force? The policy asks you to confirm this call.',
    ]);
  });

  it('do not ask when the argument is not true', async () => {
    const runs: string[] = [];
    const asked: string[] = [];
    await layerWith(policy(), runs).callTool('collect_assets', {}, { client: client('decline', asked) });
    expect(runs).toEqual(['normal']);
    expect(asked).toEqual([]);
  });

  it('refuse a client without elicitation with -32021', async () => {
    const runs: string[] = [];
    await expect(layerWith(policy(), runs).callTool('collect_assets', { force: true })).rejects.toMatchObject(
      {
        code: -32021,
      },
    );
    expect(runs).toEqual([]);
  });

  it('show a custom message and reject an entry without tools', () => {
    const custom = load({ confirm: [{ tools: ['*'], message: 'Really?' }] });
    const layer = layerWith(custom, []);
    const asked: string[] = [];
    return layer.callTool('collect_assets', {}, { client: client('accept', asked) }).then(() => {
      expect(asked).toEqual(['Really?']);
      expect(() => load({ confirm: [{ tools: [] }] })).toThrow();
    });
  });
});
