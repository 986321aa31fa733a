/**
 * Hints on the errors that end `resources/read` and `prompts/get`. A JSON-RPC error has one
 * message and data, no content blocks, and most clients pass only the message on to the model,
 * so what helps it correct the request is in the message: close matches for an unknown URI, and
 * an error's hint blocks (the ones a tool's error result shows after its message) after the
 * message, through the caller's output pipeline.
 */
import { describe, expect, it } from 'vitest';
import { Layer, NotFoundError, PromptResult, Registry, structuredText } from '../src/index.js';
import { MaskingPipeline, RecordingPolicy } from './helpers.js';

/** A handler's error that lists close matches among things named in data. */
function notFound(): NotFoundError {
  return new NotFoundError('No thing matches the reference. 2 close matches are listed with this error.', {
    data: { suggestions: ['secret-alpha', 'beta'] },
    hints: [structuredText({ close_matches: ['secret-alpha', 'beta'] }, { prefix: 'Close matches: ' })],
  });
}

function registry(): Registry {
  const reg = new Registry();
  for (const uri of ['demo://workspace', 'demo://datasets', 'demo://private'])
    reg.resource({ uri, name: uri.slice(7), category: 'demo', handler: () => ({ ok: true }) });
  reg.resourceTemplate({
    uriTemplate: 'demo://things/{ref}',
    name: 'thing',
    category: 'demo',
    handler: () => {
      throw notFound();
    },
  });
  reg.prompt({
    name: 'about_thing',
    category: 'demo',
    arguments: [{ name: 'ref', required: true }],
    handler: () => {
      throw notFound();
    },
  });
  reg.prompt({
    name: 'embeds_thing',
    category: 'demo',
    handler: async (ctx) => {
      const blocks = await ctx.embedResource('demo://things/x');
      return new PromptResult(blocks.map((content) => ({ role: 'user' as const, content })));
    },
  });
  return reg;
}

async function rejection(promise: Promise<unknown>): Promise<NotFoundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof NotFoundError)) throw new Error(`expected a NotFoundError, got ${String(error)}`);
  return error;
}

describe('an unknown resource URI', () => {
  it('names close matches among the visible resources and templates, in the message and data', async () => {
    const layer = new Layer({ registry: registry() });
    const error = await rejection(layer.readResource('demo://workspaces'));
    expect(error.message).toBe('Unknown resource: demo://workspaces. Did you mean demo://workspace?');
    expect(error.data).toEqual({ uri: 'demo://workspaces', close_matches: ['demo://workspace'] });
    const template = await rejection(layer.readResource('demo://thing/x'));
    expect(template.message).toBe('Unknown resource: demo://thing/x. Did you mean demo://things/{ref}?');
  });

  it('compares after the scheme, so a short URI is not close to every resource of the server', async () => {
    const layer = new Layer({ registry: registry() });
    const error = await rejection(layer.readResource('demo://nope'));
    expect(error.message).toBe('Unknown resource: demo://nope');
    expect(error.data).toEqual({ uri: 'demo://nope' });
    // A wrong scheme still finds the resource it meant.
    const scheme = await rejection(layer.readResource('dmeo://datasets'));
    expect(scheme.message).toBe('Unknown resource: dmeo://datasets. Did you mean demo://datasets?');
  });

  it('never names a resource the policy hides from the caller', async () => {
    const layer = new Layer({ registry: registry(), policy: new RecordingPolicy({ hidden: ['private'] }) });
    const error = await rejection(layer.readResource('demo://privat'));
    expect(error.message).toBe('Unknown resource: demo://privat');
  });
});

describe("a resource or prompt error's hints", () => {
  it('follow the message of the JSON-RPC error as text', async () => {
    const layer = new Layer({ registry: registry() });
    const read = await rejection(layer.readResource('demo://things/x'));
    expect(read.message).toBe(
      'No thing matches the reference. 2 close matches are listed with this error.\n' +
        'Close matches: {"close_matches":["secret-alpha","beta"]}',
    );
    expect(read.data).toEqual({ suggestions: ['secret-alpha', 'beta'] });
    const prompt = await rejection(layer.getPrompt('about_thing', { ref: 'x' }));
    expect(prompt.message).toBe(read.message);
  });

  it("pass the caller's output pipeline like the message and data", async () => {
    const layer = new Layer({
      registry: registry(),
      policy: new RecordingPolicy({ output: new MaskingPipeline() }),
    });
    const read = await rejection(layer.readResource('demo://things/x'));
    expect(read.message).toBe(
      'No thing matches the reference. 2 close matches are listed with this error.\n' +
        'Close matches: {"close_matches":["[REDACTED]","beta"]}',
    );
    expect(read.data).toEqual({ suggestions: ['[REDACTED]', 'beta'] });
    expect(read.message).not.toContain('secret-alpha');
  });

  it('appear once when a prompt embeds the resource that failed', async () => {
    const layer = new Layer({ registry: registry() });
    const error = await rejection(layer.getPrompt('embeds_thing', {}));
    expect(error.message.match(/Close matches: /g)).toHaveLength(1);
  });
});
