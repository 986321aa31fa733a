/**
 * Argument validation with errors a model can act on. Each problem becomes `{loc, msg, type}`:
 * `loc` is the dotted path of the argument, `msg` says what was expected, `type` is a stable
 * machine code. The values themselves are never quoted.
 */
import type * as z from 'zod';
import { type ArgumentIssue, InvalidArgumentsError } from '../errors.js';
import { isPlainObject, type JsonObject, type JsonValue } from '../json.js';
import { coerceToSchema } from './coerce.js';
import type { ArgsObject } from './schema.js';

type Issue = z.core.$ZodIssue;

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** `'a', 'b' or 'c'`: the allowed values as the messages list them. */
export function oneOf(values: readonly unknown[]): string {
  const parts = values.map(quote);
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/** `1 character`, `2 characters`. */
export function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  bigint: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  null: ['none_required', 'Input should be None'],
  date: ['date_type', 'Input should be a valid date'],
};

/** The JSON Schema node at a path, to tell integers from numbers (zod reports both as `number`). */
function schemaAt(schema: JsonObject | undefined, path: readonly PropertyKey[]): JsonObject | undefined {
  let node: JsonValue | undefined = schema;
  for (const key of path) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const next: JsonValue | undefined =
      typeof key === 'number'
        ? (node.items as JsonValue | undefined)
        : (node.properties as JsonObject | undefined)?.[String(key)];
    node = next;
  }
  return node && typeof node === 'object' && !Array.isArray(node) ? node : undefined;
}

function describe(issue: Issue, input: unknown, node: JsonObject | undefined): { type: string; msg: string } {
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { type: 'missing', msg: 'Field required' };
      const integer = issue.expected === 'int' || (issue.expected === 'number' && node?.type === 'integer');
      if (typeof input === 'string') {
        if (integer)
          return {
            type: 'int_parsing',
            msg: 'Input should be a valid integer, unable to parse string as an integer',
          };
        if (issue.expected === 'number')
          return {
            type: 'float_parsing',
            msg: 'Input should be a valid number, unable to parse string as a number',
          };
        if (issue.expected === 'boolean')
          return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' };
      }
      if (integer && typeof input !== 'number')
        return { type: 'int_type', msg: 'Input should be a valid integer' };
      if (issue.expected === 'int' && typeof input === 'number' && Number.isFinite(input)) {
        return Number.isInteger(input)
          ? { type: 'int_type', msg: 'Input should be a valid integer (safe range exceeded)' }
          : {
              type: 'int_from_float',
              msg: 'Input should be a valid integer, got a number with a fractional part',
            };
      }
      const known = TYPE_NAMES[issue.expected];
      return known
        ? { type: known[0], msg: known[1] }
        : { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` };
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string')
        return { type: 'string_too_short', msg: `String should have at least ${plural(min, 'character')}` };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { type: 'too_short', msg: `List should have at least ${plural(min, 'item')}` };
      return issue.inclusive
        ? { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${min}` }
        : { type: 'greater_than', msg: `Input should be greater than ${min}` };
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string')
        return { type: 'string_too_long', msg: `String should have at most ${plural(max, 'character')}` };
      if (issue.origin === 'array' || issue.origin === 'set')
        return { type: 'too_long', msg: `List should have at most ${plural(max, 'item')}` };
      return issue.inclusive
        ? { type: 'less_than_equal', msg: `Input should be less than or equal to ${max}` }
        : { type: 'less_than', msg: `Input should be less than ${max}` };
    }
    case 'invalid_value':
      return { type: 'literal_error', msg: `Input should be ${oneOf(issue.values)}` };
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue) {
        return {
          type: 'string_pattern_mismatch',
          msg: `String should match pattern '${String(issue.pattern)}'`,
        };
      }
      return { type: 'value_error', msg: `Value error, input is not a valid ${issue.format}` };
    case 'not_multiple_of':
      return { type: 'multiple_of', msg: `Input should be a multiple of ${issue.divisor}` };
    case 'invalid_union':
      return { type: 'union_error', msg: 'Input does not match any of the allowed types' };
    case 'invalid_key':
    case 'invalid_element':
      return { type: 'value_error', msg: issue.message };
    case 'custom':
      return { type: 'value_error', msg: `Value error, ${issue.message}` };
    default:
      return { type: issue.code, msg: issue.message };
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function loc(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** Every problem in zod's issue list, in the order zod found them, one entry per unknown key. */
export function issuesFromZod(
  issues: readonly Issue[],
  input: unknown,
  jsonSchema?: JsonObject,
): ArgumentIssue[] {
  const out: ArgumentIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          loc: loc([...issue.path, key]),
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        });
      }
      continue;
    }
    const { type, msg } = describe(issue, valueAt(input, issue.path), schemaAt(jsonSchema, issue.path));
    out.push({ loc: loc(issue.path), msg, type });
  }
  return out;
}

/**
 * The model-facing message: `Invalid arguments: loc: msg; loc: msg`. When a key is unknown and
 * the schema is at hand, the names it accepts there follow (`. Valid arguments: a, b`), so a
 * model that misspelt one can correct itself from the text alone.
 */
export function invalidArgumentsMessage(issues: readonly ArgumentIssue[], jsonSchema?: JsonObject): string {
  const listed = issues.map((i) => (i.loc ? `${i.loc}: ${i.msg}` : i.msg)).join('; ');
  return `Invalid arguments: ${listed}${validKeysHint(issues, jsonSchema)}`;
}

/** Where unknown keys were found, the property names the schema declares at that place. */
function validKeysHint(issues: readonly ArgumentIssue[], jsonSchema: JsonObject | undefined): string {
  if (!jsonSchema) return '';
  const places = new Map<string, string[]>();
  for (const issue of issues) {
    if (issue.type !== 'extra_forbidden') continue;
    const path = issue.loc.split('.').slice(0, -1);
    const where = path.join('.');
    if (places.has(where)) continue;
    const node = schemaAt(
      jsonSchema,
      path.map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    );
    const properties = node?.properties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
      places.set(where, Object.keys(properties));
    }
  }
  return [...places]
    .map(([where, keys]) =>
      where === '' ? `. Valid arguments: ${keys.join(', ')}` : `. Valid keys of ${where}: ${keys.join(', ')}`,
    )
    .join('');
}

/** The arguments of a call as an object: none at all counts as `{}`, anything else is refused. */
export function argumentsObject(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (!isPlainObject(args)) {
    throw new InvalidArgumentsError('arguments must be an object', {
      data: [{ loc: '', msg: 'Input should be a valid dictionary', type: 'dict_type' }],
    });
  }
  return args;
}

/**
 * Validate and coerce `args` against a tool's schema. Returns the parsed arguments with
 * defaults filled in, or throws `InvalidArgumentsError` listing every problem.
 */
export function validateArguments(
  schema: ArgsObject,
  args: unknown,
  jsonSchema?: JsonObject,
): Record<string, unknown> {
  const prepared = coerceToSchema(argumentsObject(args), jsonSchema);
  const result = schema.safeParse(prepared);
  if (result.success) return result.data as Record<string, unknown>;
  const issues = issuesFromZod(result.error.issues, prepared, jsonSchema);
  throw new InvalidArgumentsError(invalidArgumentsMessage(issues, jsonSchema), { data: issues });
}
