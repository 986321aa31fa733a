import type { ToolContext } from '../context.js';
import type { JsonObject } from '../json.js';
import type { PromptMessage, PromptResult } from '../results.js';
import { assertValidName, BaseSpec, type BaseSpecInit } from './base.js';
import type { CompletionFn } from './resource.js';

export interface PromptArgument<TApp = unknown> {
  name: string;
  description?: string;
  title?: string;
  /** An empty string counts as missing. */
  required?: boolean;
  completion?: CompletionFn<TApp>;
}

/** A prompt handler returns a `PromptResult`, a list of messages, or a string (one user message). */
export type PromptHandler<TApp> = (
  ctx: ToolContext<TApp>,
  args: Record<string, string>,
) => PromptResult | PromptMessage[] | string | Promise<PromptResult | PromptMessage[] | string>;

export interface PromptSpecInit<TApp> extends BaseSpecInit {
  arguments?: PromptArgument<TApp>[];
  handler: PromptHandler<TApp>;
}

export class PromptSpec<TApp = unknown> extends BaseSpec {
  readonly kind = 'prompt' as const;
  readonly arguments: readonly PromptArgument<TApp>[];
  readonly handler: PromptHandler<TApp>;

  constructor(init: PromptSpecInit<TApp>) {
    super(init, 'internal');
    assertValidName(init.name, 'prompt');
    this.arguments = init.arguments ?? [];
    this.handler = init.handler;
  }

  /** The `prompts/list` entry. `name` is the exposed name (with the layer prefix). */
  toWire(name: string = this.name): JsonObject {
    assertValidName(name, 'prompt');
    const wire: JsonObject = {
      name,
      description: this.description,
      arguments: this.arguments.map((arg) => {
        const out: JsonObject = { name: arg.name, required: arg.required ?? false };
        if (arg.description) out.description = arg.description;
        if (arg.title) out.title = arg.title;
        return out;
      }),
    };
    return this.addCommonWire(wire);
  }
}

export function definePrompt<TApp = unknown>(init: PromptSpecInit<TApp>): PromptSpec<TApp> {
  return new PromptSpec<TApp>(init);
}
