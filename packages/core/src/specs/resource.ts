import type { ContentAnnotations } from '../content.js';
import type { ToolContext } from '../context.js';
import type { JsonObject } from '../json.js';
import { UriTemplate } from '../uri-template.js';
import { BaseSpec, type BaseSpecInit } from './base.js';

/**
 * A resource handler may return a string (text with the spec's MIME type), bytes (a base64
 * blob), a non-empty array of resource contents, or any JSON value (sent as indented JSON).
 */
export type ResourceHandler<TApp> = (ctx: ToolContext<TApp>) => unknown;
export type TemplateHandler<TApp> = (ctx: ToolContext<TApp>, variables: Record<string, string>) => unknown;
/** Candidate values for one variable, given what the user typed so far. */
export type CompletionFn<TApp> = (
  ctx: ToolContext<TApp>,
  partial: string,
) => Iterable<string | number> | Promise<Iterable<string | number>>;

interface ResourceCommonInit extends BaseSpecInit {
  mimeType?: string;
  annotations?: ContentAnnotations;
  size?: number;
}

export interface ResourceSpecInit<TApp> extends ResourceCommonInit {
  uri: string;
  handler: ResourceHandler<TApp>;
}

export interface ResourceTemplateSpecInit<TApp> extends ResourceCommonInit {
  uriTemplate: string;
  completions?: Record<string, CompletionFn<TApp>>;
  handler: TemplateHandler<TApp>;
}

function withResourceFields(
  wire: JsonObject,
  spec: { mimeType: string; description: string; annotations?: ContentAnnotations; size?: number },
) {
  wire.mimeType = spec.mimeType;
  if (spec.description) wire.description = spec.description;
  if (spec.annotations && Object.keys(spec.annotations).length > 0)
    wire.annotations = { ...spec.annotations } as JsonObject;
  if (spec.size !== undefined) wire.size = spec.size;
}

export class ResourceSpec<TApp = unknown> extends BaseSpec {
  readonly kind = 'resource' as const;
  readonly uri: string;
  readonly mimeType: string;
  readonly annotations: ContentAnnotations | undefined;
  readonly size: number | undefined;
  readonly handler: ResourceHandler<TApp>;

  constructor(init: ResourceSpecInit<TApp>) {
    super(init);
    this.uri = init.uri;
    this.mimeType = init.mimeType ?? 'application/json';
    this.annotations = init.annotations;
    this.size = init.size;
    this.handler = init.handler;
  }

  /** The `resources/list` entry. */
  toWire(): JsonObject {
    const wire: JsonObject = { uri: this.uri, name: this.name };
    withResourceFields(wire, this);
    return this.addCommonWire(wire);
  }
}

export class ResourceTemplateSpec<TApp = unknown> extends BaseSpec {
  readonly kind = 'template' as const;
  readonly uriTemplate: string;
  readonly template: UriTemplate;
  readonly mimeType: string;
  readonly annotations: ContentAnnotations | undefined;
  readonly size: number | undefined;
  readonly completions: Readonly<Record<string, CompletionFn<TApp>>>;
  readonly handler: TemplateHandler<TApp>;

  constructor(init: ResourceTemplateSpecInit<TApp>) {
    super(init);
    this.uriTemplate = init.uriTemplate;
    this.template = new UriTemplate(init.uriTemplate);
    this.mimeType = init.mimeType ?? 'application/json';
    this.annotations = init.annotations;
    this.size = init.size;
    this.completions = init.completions ?? {};
    this.handler = init.handler;
  }

  get variables(): readonly string[] {
    return this.template.variables;
  }

  match(uri: string): Record<string, string> | undefined {
    return this.template.match(uri);
  }

  expand(values: Record<string, string | number>): string {
    return this.template.expand(values);
  }

  /** The `resources/templates/list` entry. */
  toWire(): JsonObject {
    const wire: JsonObject = { uriTemplate: this.uriTemplate, name: this.name };
    withResourceFields(wire, this);
    return this.addCommonWire(wire);
  }
}

export function defineResource<TApp = unknown>(init: ResourceSpecInit<TApp>): ResourceSpec<TApp> {
  return new ResourceSpec<TApp>(init);
}

export function defineResourceTemplate<TApp = unknown>(
  init: ResourceTemplateSpecInit<TApp>,
): ResourceTemplateSpec<TApp> {
  return new ResourceTemplateSpec<TApp>(init);
}
