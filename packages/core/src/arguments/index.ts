export { coerceToSchema } from './coerce.js';
export { InputSchemaError, type JsonSchemaValidator, jsonSchemaValidator } from './json-schema.js';
export { assertNestingWithin, MAX_ARGUMENT_DEPTH } from './nesting.js';
export {
  type ArgsInput,
  type ArgsObject,
  type ArgsOf,
  type ArgsShape,
  inputSchemaFor,
  outputSchemaFor,
  toArgsObject,
} from './schema.js';
export { invalidArgumentsMessage, issuesFromZod, validateArguments } from './validate.js';
