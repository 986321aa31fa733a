import { describe, expect, it } from 'vitest';
import {
  Layer,
  type PipelineRun,
  type PolicyPort,
  PromptResult,
  Registry,
  structuredResource,
  structuredText,
  ToolResult,
  type TransformPipeline,
  textContent,
} from '../src/index.js';

/** A key-based transform: every value under a `name` key is replaced, wherever it sits. */
class NameKeyPipeline implements TransformPipeline {
  readonly isEmpty = false;
  run(value: unknown): PipelineRun {
    let count = 0;
    const walk = (v: unknown, key?: string): unknown => {
      if (key === 'name' && typeof v === 'string') {
        count += 1;
        return 'res-pseudonym';
      }
      if (key === 'uri' && typeof v === 'string') return v.replace('web-1', 'res-pseudonym');
      if (Array.isArray(v)) return v.map((x) => walk(x));
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
      return v;
    };
    return { value: walk(value), report: count ? { pseudonymized: { resource_name: count } } : {} };
  }
}

const keyPolicy: PolicyPort = {
  name: 'keys',
  isAllowed: () => true,
  checkCall: () => {},
  outputPipeline: () => new NameKeyPipeline(),
  inputPipeline: () => undefined,
};

function registry(): Registry {
  const reg = new Registry();
  reg.prompt({
    name: 'investigate',
    handler: () =>
      new PromptResult([
        { role: 'user', content: textContent('Investigate the asset below.') },
        {
          role: 'user',
          content: structuredText(
            { name: 'web-1', type: 'EC2' },
            { prefix: 'Context (JSON):\n```json\n', suffix: '\n```' },
          ),
        },
        { role: 'user', content: structuredResource('cloudg://assets/web-1', { name: 'web-1' }) },
      ]),
  });
  reg.tool({
    name: 'report',
    handler: () =>
      new ToolResult({ content: [structuredText({ owner: { name: 'alice' } }, { prefix: 'Owner: ' })] }),
  });
  return reg;
}

describe('text rendered from data', () => {
  it('is transformed through its data, so key-based detectors apply, and rendered again', async () => {
    const layer = new Layer({ registry: registry(), policy: keyPolicy });
    const prompt = (await layer.getPrompt('investigate')).toWire();
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Investigate the asset below.' } },
      {
        role: 'user',
        content: {
          type: 'text',
          text: 'Context (JSON):\n```json\n{"name":"res-pseudonym","type":"EC2"}\n```',
        },
      },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'cloudg://assets/res-pseudonym',
            mimeType: 'application/json',
            text: '{"name":"res-pseudonym"}',
          },
        },
      },
    ]);
    expect(JSON.stringify(prompt)).not.toContain('web-1');
    const tool = (await layer.callTool('report')).toWire();
    expect(tool.content).toEqual([{ type: 'text', text: 'Owner: {"owner":{"name":"res-pseudonym"}}' }]);
    expect((tool._meta as Record<string, unknown>)['cloudg/transforms']).toEqual({
      pseudonymized: { resource_name: 1 },
    });
  });

  it('never sends its data keys on the wire, even without transforms', async () => {
    const layer = new Layer({ registry: registry() });
    const prompt = (await layer.getPrompt('investigate')).toWire();
    const text = JSON.stringify(prompt);
    expect(text).not.toContain('cloudg/data');
    expect(text).not.toContain('cloudg/render');
    expect((prompt.messages as Array<{ content: { text?: string } }>)[1]!.content.text).toContain(
      '"name":"web-1"',
    );
    const tool = JSON.stringify((await layer.callTool('report')).toWire());
    expect(tool).not.toContain('cloudg/data');
  });

  it("follows the layer's prettyJson, with and without transforms, like a tool result's text", async () => {
    const texts = async (layer: Layer) => {
      const prompt = (await layer.getPrompt('investigate')).toWire();
      const messages = prompt.messages as Array<{ content: { text?: string; resource?: { text: string } } }>;
      const tool = (await layer.callTool('report')).toWire();
      return [
        messages[1]!.content.text,
        messages[2]!.content.resource!.text,
        (tool.content as Array<{ text: string }>)[0]!.text,
      ];
    };
    expect(await texts(new Layer({ registry: registry(), prettyJson: true }))).toEqual([
      'Context (JSON):\n```json\n{\n  "name": "web-1",\n  "type": "EC2"\n}\n```',
      '{\n  "name": "web-1"\n}',
      'Owner: {\n  "owner": {\n    "name": "alice"\n  }\n}',
    ]);
    expect(await texts(new Layer({ registry: registry(), policy: keyPolicy, prettyJson: true }))).toEqual([
      'Context (JSON):\n```json\n{\n  "name": "res-pseudonym",\n  "type": "EC2"\n}\n```',
      '{\n  "name": "res-pseudonym"\n}',
      'Owner: {\n  "owner": {\n    "name": "res-pseudonym"\n  }\n}',
    ]);
    // Compact whether or not a pipeline rendered the text again.
    expect(await texts(new Layer({ registry: registry() }))).toEqual([
      'Context (JSON):\n```json\n{"name":"web-1","type":"EC2"}\n```',
      '{"name":"web-1"}',
      'Owner: {"owner":{"name":"alice"}}',
    ]);
  });
});
