import type { PromptSpec } from './prompt.js';
import type { ResourceSpec, ResourceTemplateSpec } from './resource.js';
import type { ToolSpec } from './tool.js';

export { assertValidName, BaseSpec, type BaseSpecInit, NAME_PATTERN } from './base.js';
export {
  definePrompt,
  type PromptArgument,
  type PromptHandler,
  PromptSpec,
  type PromptSpecInit,
} from './prompt.js';
export {
  type CompletionFn,
  defineResource,
  defineResourceTemplate,
  type ResourceHandler,
  ResourceSpec,
  type ResourceSpecInit,
  ResourceTemplateSpec,
  type ResourceTemplateSpecInit,
  type TemplateHandler,
} from './resource.js';
export { defineTool, type ToolHandler, ToolSpec, type ToolSpecInit, type TransformHints } from './tool.js';

/** Any primitive the registry holds. */
export type AnySpec<TApp = unknown> =
  | ToolSpec<TApp>
  | ResourceSpec<TApp>
  | ResourceTemplateSpec<TApp>
  | PromptSpec<TApp>;
export type SpecKind = AnySpec['kind'];
