/**
 * Hints in the text the model reads. Close matches for an unknown asset or finding, candidates
 * for an ambiguous reference and the loaded datasets for an unknown name follow the message as a
 * second text block, which passes through the caller's output pipeline like any result: under
 * `strict` it lists pseudonyms, the same ones the error data and later results carry.
 */
import type { Layer, TextContent, ToolResult } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { resolveFindingRef } from '../../src/conventions/findings.js';
import { ReferenceNotFoundError, type Workspace } from '../../src/index.js';
import { profileLayer } from '../privacy-profiles/support.js';
import { sampleLayer } from './support.js';

function texts(result: ToolResult): string[] {
  return result.content.map((c) => (c as TextContent).text);
}

/** The JSON after the `<what>: ` prefix of a hint block. */
function hintData(text: string | undefined): Record<string, unknown> {
  const at = text?.indexOf(': {') ?? -1;
  if (!text || at === -1) throw new Error(`not a hint block: ${text}`);
  return JSON.parse(text.slice(at + 2)) as Record<string, unknown>;
}

describe('error hints for the model', () => {
  it('an unknown asset: the message says how many close matches follow, the second block lists them', async () => {
    const { layer } = await sampleLayer();
    const result = await layer.callTool('get_asset', { ref: 'web' });
    expect(result.isError).toBe(true);
    const [message, hint] = texts(result);
    expect(message).toBe(
      'No asset matches the reference in this dataset. 5 close matches are listed with this error. Use find_assets(query=...) to search by name, ARN or tag.',
    );
    expect(hint?.startsWith('Close matches (pass one id as ref): ')).toBe(true);
    const listed = hintData(hint).close_matches as { id: string }[];
    expect(listed).toHaveLength(5);
    expect(listed.map((m) => m.id)).toContain('web-1');
    expect(result.meta['cloudg/error_data']).toMatchObject({ suggestions: listed });
  });

  it('an unknown finding and an unknown dataset list their matches the same way', async () => {
    const { layer, ws } = await sampleLayer();
    let error: unknown;
    try {
      resolveFindingRef(ws.get('sample'), 'ssh');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReferenceNotFoundError);
    const { message, hints } = error as ReferenceNotFoundError;
    expect(message).toMatch(
      /^No finding with that id in this dataset\. 1 close match is listed with this error\./,
    );
    expect(hints.map((h) => (h as TextContent).text)).toEqual([
      'Close matches (pass one finding_id): {"close_matches":[{"finding_id":"f-ssh-open","dataset":"sample"}]}',
    ]);

    const dataset = await layer.callTool('find_assets', { dataset: 'prod' });
    expect(texts(dataset)).toEqual([
      'No such dataset. 1 dataset(s) are loaded: they are listed with this error, or call list_datasets.',
      'Loaded datasets (pass one as dataset): {"datasets":[{"dataset":"sample"}]}',
    ]);
  });

  it('under strict the close matches are pseudonyms that work as references, and no real name shows', async () => {
    const { layer } = (await profileLayer('strict')) as { layer: Layer<Workspace> };
    const result = await layer.callTool('get_asset', { ref: 'web' });
    const [message, hint] = texts(result);
    const wire = JSON.stringify(result.toWire());
    for (const real of ['web-1', 'web-2', 'tg-web', 'alb-web', '111111111111'])
      expect(wire).not.toContain(real);
    expect(message).toContain('5 close matches are listed with this error');
    const listed = hintData(hint).close_matches as { id: string; name: string }[];
    expect(listed).toHaveLength(5);
    for (const match of listed) expect(match.id).toMatch(/^res-[0-9a-f]{10}$/);
    // The same pseudonyms as the error data, and each one resolves in a follow-up call.
    const data = result.meta['cloudg/error_data'] as { suggestions: { id: string }[] };
    expect(data.suggestions.map((s) => s.id)).toEqual(listed.map((m) => m.id));
    const followUp = await layer.callTool('get_asset', { ref: listed[1]?.id });
    expect(followUp.isError).toBe(false);
    expect((followUp.structured as { id: string }).id).toBe(listed[1]?.id);
  });
});
