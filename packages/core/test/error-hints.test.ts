/**
 * Hints in the text the model reads: most clients do not pass `_meta` on, so what helps the model
 * correct a call (valid argument names, close matches) is in the result's text, never only in
 * `cloudg/error_data`, and the caller's own value is still not echoed by a message.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Layer, NotFoundError, Registry, structuredText, type TextContent } from '../src/index.js';
import { MaskingPipeline, RecordingPolicy } from './helpers.js';

function registry(): Registry {
  const reg = new Registry();
  reg.tool({
    name: 'search',
    input: {
      query: z.string(),
      filter: z.strictObject({ region: z.string(), owner: z.string() }).optional(),
    },
    handler: () => ({ items: [] }),
  });
  reg.tool({
    name: 'get_thing',
    input: { ref: z.string() },
    handler: () => {
      throw new NotFoundError('No thing matches the reference. 2 close matches are listed with this error.', {
        data: { suggestions: ['secret-alpha', 'beta'] },
        hints: [structuredText({ close_matches: ['secret-alpha', 'beta'] }, { prefix: 'Close matches: ' })],
      });
    },
  });
  return reg;
}

const texts = (content: unknown[]) => content.map((c) => (c as TextContent).text);

describe('error hints', () => {
  it('an unknown argument lists the valid ones in the message', async () => {
    const layer = new Layer({ registry: registry() });
    const result = await layer.callTool('search', { query: 'x', qeury: 'y' });
    expect(texts(result.content)).toEqual([
      'Invalid arguments: qeury: Extra inputs are not permitted. Valid arguments: query, filter',
    ]);
    const nested = await layer.callTool('search', {
      query: 'x',
      filter: { region: 'a', owner: 'b', zone: 'c' },
    });
    expect(texts(nested.content)).toEqual([
      'Invalid arguments: filter.zone: Extra inputs are not permitted. Valid keys of filter: region, owner',
    ]);
  });

  it("an error's hints follow its message as text blocks, through the caller's output pipeline", async () => {
    const open = new Layer({ registry: registry() });
    const plain = await open.callTool('get_thing', { ref: 'x' });
    expect(plain.isError).toBe(true);
    expect(texts(plain.content)).toEqual([
      'No thing matches the reference. 2 close matches are listed with this error.',
      'Close matches: {"close_matches":["secret-alpha","beta"]}',
    ]);
    // Text rendered from data leaves no render metadata on the wire.
    expect(JSON.stringify(plain.toWire())).not.toContain('cloudg/data');

    const masked = new Layer({
      registry: registry(),
      policy: new RecordingPolicy({ output: new MaskingPipeline() }),
    });
    const result = await masked.callTool('get_thing', { ref: 'x' });
    expect(texts(result.content)[1]).toBe('Close matches: {"close_matches":["[REDACTED]","beta"]}');
    expect(result.meta['cloudg/error_data']).toEqual({ suggestions: ['[REDACTED]', 'beta'] });
  });
});
