/**
 * Two requests on one replica whose vault is shared: the one that fails drops only the mappings
 * it issued, while the other is still settling with the store.
 */
import { defineTool } from '@cloudg/core';
import {
  Pipeline,
  type SharedAnswer,
  type SharedClaim,
  type SharedHolder,
  type SharedVaultStore,
  TokenVault,
  type Transform,
} from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PolicyPipeline } from '../src/pipeline/privacy.js';
import { bindSharedVault } from '../src/pipeline/shared-vault.js';
import { as } from './helpers.js';

const key = 'k'.repeat(32);

/** First holder of a pseudonym key wins; reveals wait for `gate`. */
function gatedStore(gate: Promise<void>): SharedVaultStore & { filed: Map<string, SharedHolder> } {
  const filed = new Map<string, SharedHolder>();
  const batches = new Map<string, string>();
  return {
    filed,
    async claim(batch, mappings): Promise<SharedAnswer<SharedClaim>> {
      batches.set(batch.id, batch.sealed);
      const answers = mappings.map((m, i): SharedClaim => {
        const held = filed.get(m.pseudonymKey);
        if (held && held.valueKey !== m.valueKey) return { status: 'pseudonym', holder: held.ref, ...held };
        if (!held) filed.set(m.pseudonymKey, { ref: `${batch.id}:${i}`, valueKey: m.valueKey });
        return { status: 'ok' };
      });
      return { answers, batches: Object.fromEntries(batches) };
    },
    async reveal(keys) {
      await gate;
      return { answers: keys.map((k) => filed.get(k)), batches: Object.fromEntries(batches) };
    },
    async reseal(batch) {
      if (batches.has(batch.id)) batches.set(batch.id, batch.sealed);
    },
  };
}

const transform = (apply: Transform['apply']): Transform => ({ name: 'test', id: 'test', apply });

describe('a shared vault under two requests at once', () => {
  it('a failing request leaves the mappings of the request still settling in place and shared', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const store = gatedStore(gate);
    const vault = new TokenVault({ key });
    const binding = bindSharedVault(vault, store);
    const spec = defineTool({
      name: 'get_asset',
      category: 'inventory',
      input: { ref: z.string() },
      handler: () => ({}),
    });
    const context = (request: object) => ({
      direction: 'output' as const,
      principal: as('analyst'),
      kind: 'tool' as const,
      spec,
      request,
    });
    // Request 2 reveals a pseudonym it has not seen (its sync waits on the store) and issues one.
    const settling = new PolicyPipeline(
      new Pipeline([
        transform((_value, ctx) => {
          ctx.vault?.detokenize('host-0123abcd.example');
          return ctx.vault?.pseudonymize('web-7.corp', 'hostname');
        }),
      ]),
      'test',
      vault,
      binding,
    );
    // Request 1 issues a mapping, then fails.
    let failedPseudonym = '';
    const failing = new PolicyPipeline(
      new Pipeline([
        transform((_value, ctx) => {
          failedPseudonym = ctx.vault?.pseudonymize('db-failed.corp', 'hostname') ?? '';
          throw new Error('transform failed');
        }),
      ]),
      'test',
      vault,
      binding,
    );
    const second = settling.run('x', context({}));
    // Let request 2's pass run and its sync reach the store.
    await new Promise((r) => setTimeout(r, 10));
    await expect(failing.run('y', context({}))).rejects.toThrow('transform failed');
    release();
    const out = (await second).value as string;
    expect(vault.detokenize(out)).toBe('web-7.corp');
    expect(vault.detokenize(failedPseudonym)).toBeUndefined();
    // What request 2 returned is filed in the store; the failed request's mapping is not.
    expect(store.filed.size).toBe(1);
    const other = new TokenVault({ key });
    other.shareWith();
    other.detokenize(out);
    await other.syncShared(store);
    expect(other.detokenize(out)).toBe('web-7.corp');
  });
});
