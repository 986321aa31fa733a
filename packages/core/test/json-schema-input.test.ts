import { describe, expect, it } from 'vitest';
import { defineTool, InputSchemaError, Layer, Registry } from '../src/index.js';

/** A schema zod cannot express: $defs with $anchor, composition and a conditional. */
const CONTACT_SCHEMA = {
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
    attempts: { type: 'integer', minimum: 1, default: 1 },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, not a thenable
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

function layer(): Layer {
  const registry = new Registry();
  registry.tool({
    name: 'contact',
    inputSchema: CONTACT_SCHEMA,
    handler: (_ctx, args) => ({ received: args }),
  });
  return new Layer({ registry });
}

describe('tools declared with JSON Schema 2020-12', () => {
  it('publish the schema exactly as written', () => {
    expect(layer().toolsWire()[0]!.inputSchema).toEqual(CONTACT_SCHEMA);
  });

  it('validate calls against it, filling defaults and coercing numeric strings', async () => {
    const result = await layer().callTool('contact', {
      name: 'Ada',
      email: 'ada@example.com',
      attempts: '3',
    });
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({ received: { name: 'Ada', email: 'ada@example.com', attempts: 3 } });
    const defaults = await layer().callTool('contact', { email: 'x@example.com' });
    expect(defaults.structured).toEqual({ received: { email: 'x@example.com', attempts: 1 } });
  });

  it('report problems as {loc, msg, type} without echoing values', async () => {
    const result = await layer().callTool('contact', {
      contactMethod: 'phone',
      email: 'ada@example.com',
      attempts: 0,
      colour: 'red',
    });
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe(-32602);
    const issues = result.meta['cloudg/error_data'] as Array<{ loc: string; type: string }>;
    expect(issues).toContainEqual({
      loc: 'colour',
      msg: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
    });
    expect(issues).toContainEqual({
      loc: 'attempts',
      msg: 'Input should be greater than or equal to 1',
      type: 'greater_than_equal',
    });
    expect(issues).toContainEqual({ loc: 'phone', msg: 'Field required', type: 'missing' });
    expect(JSON.stringify(result.toWire())).not.toContain('"red"');
  });

  it('word length and count limits in the singular for one, as zod-declared tools do', async () => {
    const registry = new Registry();
    registry.tool({
      name: 'tag',
      inputSchema: {
        type: 'object',
        properties: { key: { type: 'string', minLength: 1 }, values: { type: 'array', minItems: 2 } },
      },
      handler: () => ({ ok: true }),
    });
    const result = await new Layer({ registry }).callTool('tag', { key: '', values: [1] });
    const problems = result.meta['cloudg/error_data'] as Array<{ msg: string }>;
    expect(problems.map((p) => p.msg).sort()).toEqual([
      'List should have at least 2 items',
      'String should have at least 1 character',
    ]);
  });

  it('refuse a schema that cannot work, and refuse both declarations at once', () => {
    expect(() => defineTool({ name: 'bad', inputSchema: { type: 'array' }, handler: () => null })).toThrow(
      InputSchemaError,
    );
    expect(() =>
      defineTool({
        name: 'bad',
        inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        handler: () => null,
      }),
    ).toThrow(InputSchemaError);
    expect(() =>
      defineTool({ name: 'both', input: {}, inputSchema: { type: 'object' }, handler: () => null }),
    ).toThrow('give input or inputSchema, not both');
  });
});
