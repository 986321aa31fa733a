import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { inputSchemaFor, toArgsObject } from '../src/arguments/schema.js';
import { validateArguments } from '../src/arguments/validate.js';
import { deriveAnnotations } from '../src/capabilities.js';
import {
  type Capability,
  DuplicateSpecError,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  Registry,
  UriTemplate,
} from '../src/index.js';

describe('wire shapes (MCP_INTERNALS 3.3)', () => {
  it('builds a tools/list entry with annotations, title and cloudg _meta', () => {
    const spec = defineTool({
      name: 'workspace_status',
      title: 'Workspace status',
      description: 'Show what is loaded.',
      category: 'workspace',
      sensitivity: 'internal',
      tags: ['start-here'],
      outputSchema: z.object({ active_dataset: z.string().nullable().default(null) }).loose(),
      handler: () => ({}),
    });
    expect(spec.toWire()).toEqual({
      name: 'workspace_status',
      description: 'Show what is loaded.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: { active_dataset: { default: null, type: ['string', 'null'] } },
        required: ['active_dataset'],
        additionalProperties: true,
      },
      annotations: {
        title: 'Workspace status',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      title: 'Workspace status',
      _meta: {
        'cloudg/category': 'workspace',
        'cloudg/sensitivity': 'internal',
        'cloudg/tags': ['start-here'],
      },
    });
    expect(spec.toWire('cloudg_workspace_status', { includeOutputSchema: false })).not.toHaveProperty(
      'outputSchema',
    );
  });

  it('always includes description for tools and prompts, and leaves tags out when there are none', () => {
    const tool = defineTool({ name: 't', handler: () => null });
    expect(tool.toWire()).toMatchObject({
      description: '',
      _meta: { 'cloudg/category': 'general', 'cloudg/sensitivity': 'confidential' },
    });
    expect(tool.toWire()._meta).not.toHaveProperty('cloudg/tags');
    const prompt = definePrompt({
      name: 'compliance_gap_analysis',
      title: 'Compliance gap analysis',
      description: 'Failing controls for one framework.',
      category: 'prompts',
      sensitivity: 'confidential',
      tags: ['workflow'],
      arguments: [
        { name: 'framework', required: true, description: 'Framework, e.g. CIS-AWS.' },
        { name: 'dataset', description: 'Dataset name; empty = active dataset.' },
      ],
      handler: () => 'x',
    });
    expect(prompt.toWire()).toEqual({
      name: 'compliance_gap_analysis',
      description: 'Failing controls for one framework.',
      arguments: [
        { name: 'framework', required: true, description: 'Framework, e.g. CIS-AWS.' },
        { name: 'dataset', required: false, description: 'Dataset name; empty = active dataset.' },
      ],
      title: 'Compliance gap analysis',
      _meta: {
        'cloudg/category': 'prompts',
        'cloudg/sensitivity': 'confidential',
        'cloudg/tags': ['workflow'],
      },
    });
    expect(definePrompt({ name: 'p', handler: () => 'x' }).sensitivity).toBe('internal');
  });

  it('builds resource and template entries', () => {
    const resource = defineResource({
      uri: 'cloudg://workspace',
      name: 'workspace_resource',
      title: 'Workspace',
      description: 'Loaded datasets.',
      category: 'workspace',
      sensitivity: 'internal',
      handler: () => ({}),
    });
    expect(resource.toWire()).toEqual({
      uri: 'cloudg://workspace',
      name: 'workspace_resource',
      mimeType: 'application/json',
      description: 'Loaded datasets.',
      title: 'Workspace',
      _meta: { 'cloudg/category': 'workspace', 'cloudg/sensitivity': 'internal' },
    });
    const template = defineResourceTemplate({
      uriTemplate: 'cloudg://assets/{+ref}',
      name: 'asset_resource',
      title: 'Asset',
      description: 'One asset.',
      category: 'inventory',
      handler: () => ({}),
    });
    expect(template.toWire()).toEqual({
      uriTemplate: 'cloudg://assets/{+ref}',
      name: 'asset_resource',
      mimeType: 'application/json',
      description: 'One asset.',
      title: 'Asset',
      _meta: { 'cloudg/category': 'inventory', 'cloudg/sensitivity': 'confidential' },
    });
  });

  it('refuses names outside ^[A-Za-z0-9_.-]{1,128}$', () => {
    expect(() => defineTool({ name: 'bad name', handler: () => null })).toThrow(TypeError);
    expect(() => defineTool({ name: 'x'.repeat(129), handler: () => null })).toThrow(TypeError);
    expect(() => defineTool({ name: 'ok', handler: () => null }).toWire('bad/name')).toThrow(TypeError);
  });
});

describe('annotation hints derived from capabilities (MCP_INTERNALS 3.5)', () => {
  const cases: Array<[Capability[], Record<string, boolean>]> = [
    [
      ['read_state'],
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [['read_state', 'write_state'], { readOnlyHint: false, destructiveHint: false, openWorldHint: false }],
    [['read_state', 'write_fs'], { readOnlyHint: false, destructiveHint: false, openWorldHint: false }],
    [['read_fs'], { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
    [['exec'], { readOnlyHint: false, destructiveHint: false, openWorldHint: true }],
    [['cloud_access'], { readOnlyHint: true, destructiveHint: false, openWorldHint: true }],
    [['reveal'], { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
  ];
  it.each(cases)('%j', (caps, expected) => {
    expect(deriveAnnotations(new Set(caps))).toEqual(expected);
    expect(defineTool({ name: 't', capabilities: caps, handler: () => null }).annotations).toEqual(expected);
  });

  it('explicit hints win', () => {
    const spec = defineTool({
      name: 't',
      capabilities: ['cloud_access'],
      idempotent: true,
      destructive: true,
      handler: () => null,
    });
    expect(spec.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(spec.isCacheable).toBe(true);
  });
});

describe('argument schemas (MCP_INTERNALS 3.4)', () => {
  const changes = toArgsObject({
    window: z.object({ start: z.string(), end: z.string().nullable().default(null) }),
    kinds: z.array(z.enum(['asset', 'edge'])).default(['asset']),
    limit: z.number().int().min(1).max(100).default(10),
  });

  it('publishes JSON Schema 2020-12 generated from the same zod schema', () => {
    expect(inputSchemaFor(changes)).toEqual({
      type: 'object',
      properties: {
        window: {
          type: 'object',
          properties: { start: { type: 'string' }, end: { default: null, type: ['string', 'null'] } },
          required: ['start'],
        },
        kinds: { default: ['asset'], type: 'array', items: { type: 'string', enum: ['asset', 'edge'] } },
        limit: { default: 10, type: 'integer', minimum: 1, maximum: 100 },
      },
      required: ['window'],
      additionalProperties: false,
    });
  });

  it('validates with the same schema: defaults filled and "5" coerced to 5', () => {
    expect(
      validateArguments(changes, { window: { start: '2026-01-01' }, limit: '5' }, inputSchemaFor(changes)),
    ).toEqual({
      window: { start: '2026-01-01', end: null },
      kinds: ['asset'],
      limit: 5,
    });
  });

  it('reports nested problems with dotted locations and missing fields', () => {
    const error = (() => {
      try {
        validateArguments(changes, { window: {}, kinds: ['x'], limit: 1.5 }, inputSchemaFor(changes));
      } catch (e) {
        return e as { data: unknown; message: string };
      }
    })();
    expect(error?.data).toEqual([
      { loc: 'window.start', msg: 'Field required', type: 'missing' },
      { loc: 'kinds.0', msg: "Input should be 'asset' or 'edge'", type: 'literal_error' },
      {
        loc: 'limit',
        msg: 'Input should be a valid integer, got a number with a fractional part',
        type: 'int_from_float',
      },
    ]);
    expect(error?.message).toBe(
      "Invalid arguments: window.start: Field required; kinds.0: Input should be 'asset' or 'edge'; limit: Input should be a valid integer, got a number with a fractional part",
    );
  });

  it('accepts a flat shape or one object schema, and refuses unknown keys either way', () => {
    const flat = toArgsObject({ a: z.string() });
    const object = toArgsObject(z.object({ a: z.string() }));
    expect(inputSchemaFor(flat)).toEqual(inputSchemaFor(object));
    expect(() => validateArguments(object, { a: 'x', b: 1 })).toThrow('b: Extra inputs are not permitted');
  });
});

describe('URI templates (MCP_INTERNALS 3.6)', () => {
  it('{+ref} matches slashes and colons; {var} matches one segment', () => {
    const asset = new UriTemplate('cloudg://assets/{+ref}');
    const arn = 'arn:aws:ec2:us-east-1:111111111111:instance/i-0bast';
    expect(asset.expand({ ref: arn })).toBe(`cloudg://assets/${arn}`);
    expect(asset.match(asset.expand({ ref: arn }))).toEqual({ ref: arn });
    const one = new UriTemplate('cloudg://datasets/{dataset}/summary');
    expect(one.match('cloudg://datasets/prod/summary')).toEqual({ dataset: 'prod' });
    expect(one.match('cloudg://datasets/a/b/summary')).toBeUndefined();
    expect(one.expand({ dataset: 'a/b' })).toBe('cloudg://datasets/a%2Fb/summary');
    expect(new UriTemplate('x://{id*}').match('x://a/b')).toEqual({ id: 'a/b' });
    expect(one.variables).toEqual(['dataset']);
  });

  it('the registry tries the longest template string first', () => {
    const reg = new Registry();
    reg.resourceTemplate({ uriTemplate: 'cloudg://assets/{+ref}', name: 'asset', handler: () => null });
    reg.resourceTemplate({
      uriTemplate: 'cloudg://assets/{+ref}/neighbors',
      name: 'neighbors',
      handler: () => null,
    });
    const found = reg.findTemplate('cloudg://assets/arn:aws:ec2:us-east-1:1:instance/i-1/neighbors');
    expect(found?.spec.name).toBe('neighbors');
    expect(found?.variables).toEqual({ ref: 'arn:aws:ec2:us-east-1:1:instance/i-1' });
    expect(reg.findTemplate('cloudg://assets/web-1')?.spec.name).toBe('asset');
  });

  it('refuses duplicate registrations unless replace is set', () => {
    const reg = new Registry();
    reg.tool({ name: 'a', handler: () => 1 });
    expect(() => reg.tool({ name: 'a', handler: () => 2 })).toThrow(DuplicateSpecError);
    reg.add(defineTool({ name: 'a', handler: () => 3 }), { replace: true });
    expect(reg.size).toBe(1);
  });
});
