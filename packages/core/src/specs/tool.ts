import type * as z from 'zod';
import {
  type ArgsInput,
  type ArgsObject,
  type ArgsOf,
  inputSchemaFor,
  type JsonSchemaValidator,
  jsonSchemaValidator,
  outputSchemaFor,
  toArgsObject,
  validateArguments,
} from '../arguments/index.js';
import { deriveAnnotations, type ToolAnnotations } from '../capabilities.js';
import type { ToolContext } from '../context.js';
import type { JsonObject } from '../json.js';
import type { TaskStart, TaskSupport } from '../tasks/task-record.js';
import { assertValidName, BaseSpec, type BaseSpecInit } from './base.js';

/** Per-tool requests to the policy's transforms (skip, pseudonymize: false, project, ...). */
export type TransformHints = JsonObject;

export type ToolHandler<TApp, TArgs> = (ctx: ToolContext<TApp>, args: TArgs) => unknown;

export interface ToolSpecInit<TApp, S extends ArgsInput> extends BaseSpecInit {
  /** The arguments, as a zod object or the shape of one. Unknown keys are always refused. */
  input?: S;
  /**
   * Or the arguments as JSON Schema 2020-12, published exactly as written and validated with
   * ajv: for schemas zod cannot express (`$defs`/`$anchor`, `if`/`then`/`else`, composition).
   */
  inputSchema?: JsonObject;
  /** Schema of `structuredContent`: zod, or JSON Schema as is. */
  outputSchema?: z.ZodType | JsonObject;
  /** Explicit hints; unset ones are derived from the capabilities. */
  annotations?: ToolAnnotations;
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  transformHints?: TransformHints;
  /** Seconds; beats the layer's default timeout, larger or smaller. 0 disables. */
  timeoutSeconds?: number;
  /**
   * Whether the tool may run as a task (a handle now, the result later) for a client that supports
   * tasks: `optional` for long work, `required` when it cannot answer in one request. Default
   * `forbidden`.
   */
  taskSupport?: TaskSupport;
  /** When the call becomes a task; default just before the handler runs. */
  taskStart?: TaskStart;
  handler: ToolHandler<TApp, ArgsOf<S>>;
}

export class ToolSpec<TApp = unknown> extends BaseSpec {
  readonly kind = 'tool' as const;
  /** The zod schema of a zod-declared tool; undefined when the input was given as JSON Schema. */
  readonly args: ArgsObject | undefined;
  readonly inputSchema: JsonObject;
  private readonly jsonValidator: JsonSchemaValidator | undefined;
  readonly outputSchema: JsonObject | undefined;
  readonly annotations: ToolAnnotations;
  readonly transformHints: TransformHints;
  readonly timeoutSeconds: number | undefined;
  readonly taskSupport: TaskSupport;
  readonly taskStart: TaskStart;
  readonly handler: ToolHandler<TApp, Record<string, unknown>>;

  constructor(init: ToolSpecInit<TApp, ArgsInput>) {
    super(init);
    assertValidName(init.name, 'tool');
    if (init.inputSchema !== undefined) {
      if (init.input !== undefined)
        throw new TypeError(`Tool ${init.name}: give input or inputSchema, not both`);
      this.args = undefined;
      this.jsonValidator = jsonSchemaValidator(init.inputSchema);
      this.inputSchema = init.inputSchema;
    } else {
      this.args = toArgsObject(init.input);
      this.jsonValidator = undefined;
      this.inputSchema = inputSchemaFor(this.args);
    }
    this.outputSchema = init.outputSchema === undefined ? undefined : outputSchemaFor(init.outputSchema);
    const explicit: ToolAnnotations = { ...(init.annotations ?? {}) };
    if (init.readOnly !== undefined) explicit.readOnlyHint = init.readOnly;
    if (init.destructive !== undefined) explicit.destructiveHint = init.destructive;
    if (init.idempotent !== undefined) explicit.idempotentHint = init.idempotent;
    if (init.openWorld !== undefined) explicit.openWorldHint = init.openWorld;
    // Older clients read the title from the annotations only.
    if (init.title !== undefined && explicit.title === undefined) explicit.title = init.title;
    this.annotations = deriveAnnotations(this.capabilities, explicit);
    this.transformHints = init.transformHints ?? {};
    this.timeoutSeconds = init.timeoutSeconds;
    this.taskSupport = init.taskSupport ?? 'forbidden';
    this.taskStart = init.taskStart ?? 'before-handler';
    this.handler = init.handler as ToolHandler<TApp, Record<string, unknown>>;
  }

  /** Validate and coerce call arguments; throws InvalidArgumentsError listing every problem. */
  validateArguments(args: unknown): Record<string, unknown> {
    if (this.jsonValidator) return this.jsonValidator.validate(args);
    return validateArguments(this.args!, args, this.inputSchema);
  }

  /** Read-only and idempotent: safe to cache and to retry. */
  get isCacheable(): boolean {
    return this.annotations.readOnlyHint === true && this.annotations.idempotentHint === true;
  }

  /** The `tools/list` entry. `name` is the exposed name (with the layer prefix). */
  toWire(name: string = this.name, options: { includeOutputSchema?: boolean } = {}): JsonObject {
    assertValidName(name, 'tool');
    const wire: JsonObject = { name, description: this.description, inputSchema: this.inputSchema };
    if (this.outputSchema && options.includeOutputSchema !== false) wire.outputSchema = this.outputSchema;
    wire.annotations = { ...this.annotations } as JsonObject;
    return this.addCommonWire(wire);
  }
}

/** Declare a tool. The handler's `args` are typed from the input schema. */
export function defineTool<TApp = unknown, S extends ArgsInput = ArgsInput>(
  init: ToolSpecInit<TApp, S>,
): ToolSpec<TApp> {
  return new ToolSpec<TApp>(init as unknown as ToolSpecInit<TApp, ArgsInput>);
}
