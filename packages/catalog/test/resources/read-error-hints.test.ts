/**
 * Hints in the errors of `resources/read` and `prompts/get`, which end as JSON-RPC errors: one
 * message, no second block. The close matches a tool's error result lists in its second block
 * follow the message here, through the caller's output pipeline, so under `strict` they are
 * pseudonyms that work as references; an unknown URI names the resources it may have meant.
 */
import type { Layer, McpLayerError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { profileLayer } from '../privacy-profiles/support.js';
import { sampleLayer } from '../tools/support.js';

async function failure(promise: Promise<unknown>): Promise<McpLayerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected the request to fail');
  return error as McpLayerError;
}

/** The JSON of the hint line `<what>: {...}` that follows the message. */
function hintData(message: string, what: string): Record<string, unknown> {
  const line = message.split('\n').find((l) => l.startsWith(`${what}: `));
  if (!line) throw new Error(`no "${what}" line in: ${message}`);
  return JSON.parse(line.slice(what.length + 2)) as Record<string, unknown>;
}

describe('resources/read and prompts/get errors with hints', () => {
  it('an unknown asset URI: the message, then the close matches as the model reads them', async () => {
    const { layer } = await sampleLayer();
    const error = await failure(layer.readResource('cloudg://assets/web'));
    const [message] = error.message.split('\n');
    expect(message).toBe(
      'No asset matches the reference in this dataset. 5 close matches are listed with this error. Use find_assets(query=...) to search by name, ARN or tag.',
    );
    const listed = hintData(error.message, 'Close matches (pass one id as ref)').close_matches as {
      id: string;
    }[];
    expect(listed.map((m) => m.id)).toContain('web-1');
    expect(error.data).toMatchObject({ suggestions: listed });
  });

  it('a prompt argument naming an unknown dataset lists the loaded ones after the message', async () => {
    const { layer } = await sampleLayer();
    const error = await failure(layer.getPrompt('executive_summary', { dataset: 'nope' }));
    expect(hintData(error.message, 'Loaded datasets (pass one as dataset)')).toEqual({
      datasets: [{ dataset: 'sample' }],
    });
  });

  it('under strict the listed matches are pseudonyms that resolve, and no real name shows', async () => {
    const { layer } = (await profileLayer('strict')) as { layer: Layer<Workspace> };
    for (const request of [
      layer.readResource('cloudg://assets/web'),
      layer.getPrompt('investigate_asset', { ref: 'web' }),
    ]) {
      const error = await failure(request);
      const shown = `${error.message} ${JSON.stringify(error.data)}`;
      for (const real of ['web-1', 'web-2', 'tg-web', 'alb-web', '111111111111'])
        expect(shown).not.toContain(real);
      const listed = hintData(error.message, 'Close matches (pass one id as ref)').close_matches as {
        id: string;
      }[];
      expect(listed).toHaveLength(5);
      for (const match of listed) expect(match.id).toMatch(/^res-[0-9a-f]{10}$/);
      const contents = await layer.readResource(`cloudg://assets/${listed[0]?.id}`);
      expect(contents).toHaveLength(1);
    }
  });

  it('an unknown URI names the resources and templates it may have meant', async () => {
    const { layer } = await sampleLayer();
    const error = await failure(layer.readResource('cloudg://workspaces'));
    expect(error.message).toBe('Unknown resource: cloudg://workspaces. Did you mean cloudg://workspace?');
    const template = await failure(layer.readResource('cloudg://finding/f-web-cve'));
    expect(template.message).toContain('Did you mean cloudg://findings/{finding_id}');
    const nothing = await failure(layer.readResource('cloudg://nothing'));
    expect(nothing.message).toBe('Unknown resource: cloudg://nothing');
  });
});
