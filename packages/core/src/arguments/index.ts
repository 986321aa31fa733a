export { coerceToSchema } from './coerce.js';
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
