/**
 * Argument schemas. A tool declares its input once, as a zod object (or the shape of one);
 * the published `inputSchema` (JSON Schema 2020-12) and the validation both come from it.
 */
import * as z from 'zod';
import type { JsonObject, JsonValue } from '../json.js';

export type ArgsShape = z.ZodRawShape;
export type ArgsObject = z.ZodObject<z.ZodRawShape>;
/** A flat list of arguments (a zod shape) or one object schema holding them. */
export type ArgsInput = ArgsShape | ArgsObject;

/** The parsed arguments a handler receives for a given declaration. */
export type ArgsOf<S> = S extends ArgsObject
  ? z.output<S>
  : S extends ArgsShape
    ? z.output<z.ZodObject<S>>
    : never;

/** The declaration as a strict zod object: unknown keys are refused, as the layer promises. */
export function toArgsObject(input: ArgsInput | undefined): ArgsObject {
  if (input === undefined) return z.strictObject({});
  if (input instanceof z.ZodObject) return input.strict() as ArgsObject;
  return z.strictObject(input);
}

const SAFE_INT = 9007199254740991;

/**
 * The JSON Schema clients see. zod's 2020-12 output is kept with three adjustments: no
 * `$schema` key (MCP assumes 2020-12), no implicit safe-integer bounds on integers, and an
 * object root that always has `properties` and `additionalProperties: false`.
 */
export function inputSchemaFor(schema: ArgsObject): JsonObject {
  const raw = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonObject;
  const cleaned = tidy(raw) as JsonObject;
  delete cleaned.$schema;
  cleaned.type = 'object';
  if (cleaned.properties === undefined) cleaned.properties = {};
  cleaned.additionalProperties = false;
  return cleaned;
}

/** JSON Schema for a result shape, from zod or as given. Unlike inputs, extra keys stay allowed. */
export function outputSchemaFor(schema: z.ZodType | JsonObject): JsonObject {
  if (!(schema instanceof z.ZodType)) return schema;
  const raw = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  }) as JsonObject;
  const cleaned = tidy(raw) as JsonObject;
  delete cleaned.$schema;
  return cleaned;
}

function tidy(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = tidy(value);
  // zod writes an open object as `additionalProperties: {}`; `true` says the same more plainly.
  const extra = out.additionalProperties;
  if (extra && typeof extra === 'object' && !Array.isArray(extra) && Object.keys(extra).length === 0) {
    out.additionalProperties = true;
  }
  if (out.type === 'integer') {
    if (out.minimum === -SAFE_INT) delete out.minimum;
    if (out.maximum === SAFE_INT) delete out.maximum;
  }
  return out;
}
