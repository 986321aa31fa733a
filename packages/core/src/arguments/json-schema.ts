/**
 * Tools whose input is declared as JSON Schema 2020-12 directly, for schemas zod cannot express
 * (`$defs` with `$anchor`, `if`/`then`/`else`, composition). The schema is published exactly as
 * written and calls are validated against it with ajv; problems are reported in the same
 * `{loc, msg, type}` form as zod-declared tools.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { type ArgumentIssue, InvalidArgumentsError, McpLayerError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { coerceToSchema } from './coerce.js';
import { argumentsObject, invalidArgumentsMessage, oneOf, plural } from './validate.js';

// One compiler for every tool: ajv caches compiled schemas. `strict: false` lets MCP's own
// annotations (`x-mcp-header` and friends) through; remote `$ref`s are never fetched.
const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, validateFormats: false });

/** Thrown when a hand-written input schema cannot be compiled (code `invalid_input_schema`). */
export class InputSchemaError extends McpLayerError {
  override readonly code = 'invalid_input_schema';
}

export interface JsonSchemaValidator {
  readonly schema: JsonObject;
  validate(args: unknown): Record<string, unknown>;
}

function joinPath(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

function locOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** ajv's error, in the wording and codes zod-declared tools use. */
function issueOf(error: ErrorObject): ArgumentIssue | undefined {
  const loc = locOf(error);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { loc: joinPath(loc, String(p.missingProperty)), msg: 'Field required', type: 'missing' };
    case 'additionalProperties':
      return {
        loc: joinPath(loc, String(p.additionalProperty)),
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      };
    case 'type': {
      const type = String(p.type).split(',')[0];
      const name =
        type === 'integer' ? 'integer' : type === 'array' ? 'list' : type === 'object' ? 'dictionary' : type;
      const code =
        type === 'number'
          ? 'float_type'
          : type === 'array'
            ? 'list_type'
            : type === 'object'
              ? 'dict_type'
              : type === 'integer'
                ? 'int_type'
                : `${type}_type`;
      return { loc, msg: `Input should be a valid ${name}`, type: code };
    }
    case 'minimum':
      return { loc, msg: `Input should be greater than or equal to ${p.limit}`, type: 'greater_than_equal' };
    case 'exclusiveMinimum':
      return { loc, msg: `Input should be greater than ${p.limit}`, type: 'greater_than' };
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${p.limit}`, type: 'less_than_equal' };
    case 'exclusiveMaximum':
      return { loc, msg: `Input should be less than ${p.limit}`, type: 'less_than' };
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${plural(p.limit as number, 'character')}`,
        type: 'string_too_short',
      };
    case 'maxLength':
      return {
        loc,
        msg: `String should have at most ${plural(p.limit as number, 'character')}`,
        type: 'string_too_long',
      };
    case 'minItems':
      return {
        loc,
        msg: `List should have at least ${plural(p.limit as number, 'item')}`,
        type: 'too_short',
      };
    case 'maxItems':
      return { loc, msg: `List should have at most ${plural(p.limit as number, 'item')}`, type: 'too_long' };
    case 'pattern':
      return { loc, msg: `String should match pattern '${p.pattern}'`, type: 'string_pattern_mismatch' };
    case 'enum':
      return { loc, msg: `Input should be ${oneOf(p.allowedValues as unknown[])}`, type: 'literal_error' };
    case 'const':
      return { loc, msg: `Input should be ${oneOf([p.allowedValue])}`, type: 'literal_error' };
    // Composition and conditionals report their failing branches too; the summary line is enough.
    case 'if':
      return undefined;
    case 'anyOf':
    case 'oneOf':
      return { loc, msg: 'Input does not match any of the allowed forms', type: 'union_error' };
    default:
      return { loc, msg: `Input is not valid (${error.keyword})`, type: 'value_error' };
  }
}

/** Compile a hand-written schema once; throws InputSchemaError when it cannot be used. */
export function jsonSchemaValidator(schema: JsonObject): JsonSchemaValidator {
  if (schema.type !== 'object') throw new InputSchemaError('A tool input schema must have type "object"');
  let compiled: ValidateFunction;
  try {
    compiled = ajv.compile(schema);
  } catch (error) {
    throw new InputSchemaError(`Invalid tool input schema: ${(error as Error).message}`);
  }
  return {
    schema,
    validate(args: unknown): Record<string, unknown> {
      // Validation fills defaults in place: work on a copy so the caller's object is untouched.
      const value = structuredClone(coerceToSchema(argumentsObject(args), schema)) as Record<string, unknown>;
      if (compiled(value)) return value;
      const seen = new Set<string>();
      const issues: ArgumentIssue[] = [];
      for (const error of compiled.errors ?? []) {
        const issue = issueOf(error);
        if (!issue) continue;
        const key = `${issue.loc}|${issue.type}`;
        if (seen.has(key)) continue;
        seen.add(key);
        issues.push(issue);
      }
      throw new InvalidArgumentsError(invalidArgumentsMessage(issues, schema), { data: issues });
    },
  };
}
