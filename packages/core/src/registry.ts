import type { ArgsInput } from './arguments/index.js';
import { McpLayerError } from './errors.js';
import {
  type AnySpec,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type PromptSpec,
  type PromptSpecInit,
  type ResourceSpec,
  type ResourceSpecInit,
  type ResourceTemplateSpec,
  type ResourceTemplateSpecInit,
  type ToolSpec,
  type ToolSpecInit,
} from './specs/index.js';

/** Thrown when a spec is added twice without `replace` (code `duplicate_spec`, `data: {kind, name}`). */
export class DuplicateSpecError extends McpLayerError {
  override readonly code = 'duplicate_spec';
  declare readonly data: { kind: string; name: string };

  constructor(kind: string, key: string) {
    super(`A ${kind} named ${JSON.stringify(key)} is already registered`, { data: { kind, name: key } });
  }
}

/** The primitives a layer exposes: tools and prompts by name, resources by URI, templates by template string. */
export class Registry<TApp = unknown> {
  readonly tools = new Map<string, ToolSpec<TApp>>();
  readonly resources = new Map<string, ResourceSpec<TApp>>();
  readonly templates = new Map<string, ResourceTemplateSpec<TApp>>();
  readonly prompts = new Map<string, PromptSpec<TApp>>();
  /** Templates sorted longest template string first; rebuilt lazily after changes. */
  private templateOrder: ResourceTemplateSpec<TApp>[] | undefined;

  /** Add a spec. Duplicates are refused unless `replace` is set. Returns the spec. */
  add<S extends AnySpec<TApp>>(spec: S, options: { replace?: boolean } = {}): S {
    const [map, key] = this.slot(spec);
    if (map.has(key) && !options.replace) throw new DuplicateSpecError(spec.kind, key);
    map.set(key, spec);
    if (spec.kind === 'template') this.templateOrder = undefined;
    return spec;
  }

  /** Remove a spec by kind and key; returns whether it was there. */
  remove(kind: AnySpec['kind'], key: string): boolean {
    const map = {
      tool: this.tools,
      resource: this.resources,
      template: this.templates,
      prompt: this.prompts,
    }[kind] as Map<string, AnySpec<TApp>>;
    const removed = map.delete(key);
    if (kind === 'template') this.templateOrder = undefined;
    return removed;
  }

  /** Add every spec of another registry. */
  merge(other: Registry<TApp>, options: { replace?: boolean } = {}): this {
    for (const spec of other.all()) this.add(spec, options);
    return this;
  }

  tool<S extends ArgsInput>(init: ToolSpecInit<TApp, S>): ToolSpec<TApp> {
    return this.add(defineTool<TApp, S>(init));
  }

  resource(init: ResourceSpecInit<TApp>): ResourceSpec<TApp> {
    return this.add(defineResource<TApp>(init));
  }

  resourceTemplate(init: ResourceTemplateSpecInit<TApp>): ResourceTemplateSpec<TApp> {
    return this.add(defineResourceTemplate<TApp>(init));
  }

  prompt(init: PromptSpecInit<TApp>): PromptSpec<TApp> {
    return this.add(definePrompt<TApp>(init));
  }

  /** The template matching a URI and its variables; the longest template string is tried first. */
  findTemplate(
    uri: string,
  ): { spec: ResourceTemplateSpec<TApp>; variables: Record<string, string> } | undefined {
    this.templateOrder ??= [...this.templates.values()].sort(
      (a, b) => b.uriTemplate.length - a.uriTemplate.length,
    );
    for (const spec of this.templateOrder) {
      const variables = spec.match(uri);
      if (variables) return { spec, variables };
    }
    return undefined;
  }

  /** Every spec: tools, resources, templates, prompts. */
  *all(): IterableIterator<AnySpec<TApp>> {
    yield* this.tools.values();
    yield* this.resources.values();
    yield* this.templates.values();
    yield* this.prompts.values();
  }

  get size(): number {
    return this.tools.size + this.resources.size + this.templates.size + this.prompts.size;
  }

  private slot(spec: AnySpec<TApp>): [Map<string, AnySpec<TApp>>, string] {
    switch (spec.kind) {
      case 'tool':
        return [this.tools as Map<string, AnySpec<TApp>>, spec.name];
      case 'resource':
        return [this.resources as Map<string, AnySpec<TApp>>, spec.uri];
      case 'template':
        return [this.templates as Map<string, AnySpec<TApp>>, spec.uriTemplate];
      case 'prompt':
        return [this.prompts as Map<string, AnySpec<TApp>>, spec.name];
    }
  }
}
