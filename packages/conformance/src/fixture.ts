/**
 * The layer the MCP conformance suite expects: the fixture tools, resources and prompts its
 * scenarios call by name, built with core's Registry like any cloudg primitive.
 */
import {
  audioContent,
  createLogger,
  embeddedResource,
  imageContent,
  Layer,
  PromptResult,
  Registry,
  ToolResult,
  textContent,
} from '@cloudg/core';
import * as z from 'zod';
import { registerAskingFixtures } from './asking-fixture.js';
import { registerTaskFixtures } from './task-fixture.js';

/** A 1x1 red PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV header with no samples. */
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from('data'),
  Buffer.from([0, 0, 0, 0]),
]).toString('base64');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function buildConformanceRegistry(): Registry {
  const reg = new Registry();
  const tool = (name: string, description: string, handler: Parameters<Registry['tool']>[0]['handler']) =>
    reg.tool({ name, description, category: 'conformance', handler });

  tool(
    'test_simple_text',
    'Returns simple text.',
    () => new ToolResult({ content: [textContent('This is a simple text response for testing.')] }),
  );
  tool(
    'test_image_content',
    'Returns an image.',
    () => new ToolResult({ content: [imageContent(PNG, 'image/png')] }),
  );
  tool(
    'test_audio_content',
    'Returns audio.',
    () => new ToolResult({ content: [audioContent(WAV, 'audio/wav')] }),
  );
  tool(
    'test_embedded_resource',
    'Returns an embedded resource.',
    () =>
      new ToolResult({
        content: [
          embeddedResource({
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          }),
        ],
      }),
  );
  tool(
    'test_multiple_content_types',
    'Returns text, an image and a resource.',
    () =>
      new ToolResult({
        content: [
          textContent('Multiple content types test:'),
          imageContent(PNG, 'image/png'),
          embeddedResource({
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          }),
        ],
      }),
  );
  tool('test_tool_with_logging', 'Logs three messages.', async (ctx) => {
    await ctx.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.log('info', 'Tool execution completed');
    return new ToolResult({ content: [textContent('Tool with logging executed successfully')] });
  });
  tool('test_logging_tool', 'Logs one message.', async (ctx) => {
    await ctx.log('info', 'a log line');
    return new ToolResult({ content: [textContent('logged')] });
  });
  tool('test_error_handling', 'Always fails.', () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  tool('test_tool_with_progress', 'Reports progress.', async (ctx) => {
    await ctx.reportProgress(0, 100);
    await sleep(50);
    await ctx.reportProgress(50, 100);
    await sleep(50);
    await ctx.reportProgress(100, 100);
    return new ToolResult({ content: [textContent('Tool with progress executed successfully')] });
  });
  tool('test_trigger_tool_change', 'Announces a tool list change.', (ctx) => {
    ctx.layer.notifyChange('tools');
    return new ToolResult({ content: [textContent('tools changed')] });
  });
  tool('test_trigger_prompt_change', 'Announces a prompt list change.', (ctx) => {
    ctx.layer.notifyChange('prompts');
    return new ToolResult({ content: [textContent('prompts changed')] });
  });

  reg.tool({
    name: 'test_custom_headers',
    description: 'Parameters mirrored into Mcp-Param headers.',
    category: 'conformance',
    input: {
      region: z.string().meta({ 'x-mcp-header': 'Region' }),
      priority: z.number().int().meta({ 'x-mcp-header': 'Priority' }),
      verbose: z.boolean().nullable().optional().meta({ 'x-mcp-header': 'Verbose' }),
      query: z.string(),
    },
    handler: (_ctx, args) => ({ region: args.region, priority: args.priority }),
  });

  // SEP-1613/SEP-2106: a schema zod cannot express, published exactly as written.
  reg.tool({
    name: 'json_schema_2020_12_tool',
    description: 'Input declared as JSON Schema 2020-12 ($defs, $anchor, composition, if/then/else).',
    category: 'conformance',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, not a thenable
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    handler: (_ctx, args) => ({ received: args }),
  });

  reg.resource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
    handler: () => 'This is the content of the static text resource.',
  });
  reg.resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource.',
    mimeType: 'image/png',
    handler: () => Buffer.from(PNG, 'base64'),
  });
  reg.resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource to subscribe to.',
    mimeType: 'text/plain',
    handler: () => 'watched',
  });
  reg.resourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for an id.',
    mimeType: 'application/json',
    handler: (_ctx, vars) =>
      JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` }),
  });

  reg.prompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt.',
    handler: () => 'This is a simple prompt for testing.',
  });
  reg.prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      {
        name: 'arg1',
        description: 'First test argument',
        required: true,
        completion: (_ctx, partial) => ['paris', 'park', 'party'].filter((v) => v.startsWith(partial)),
      },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    handler: (_ctx, args) => `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
  });
  reg.prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    handler: (_ctx, args) =>
      new PromptResult([
        {
          role: 'user',
          content: embeddedResource({
            uri: args.resourceUri ?? '',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          }),
        },
        { role: 'user', content: textContent('Please process the embedded resource above.') },
      ]),
  });
  reg.prompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    handler: () =>
      new PromptResult([
        { role: 'user', content: imageContent(PNG, 'image/png') },
        { role: 'user', content: textContent('Please analyze the image above.') },
      ]),
  });
  registerAskingFixtures(reg);
  registerTaskFixtures(reg);
  return reg;
}

export function buildConformanceLayer(): Layer<unknown> {
  return new Layer({
    registry: buildConformanceRegistry(),
    name: 'cloudg-conformance',
    version: '0.1.0',
    logger: createLogger({ level: 'silent' }),
  });
}
