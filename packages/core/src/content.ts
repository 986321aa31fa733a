/**
 * Content blocks in their MCP wire shape (camelCase). The in-memory form is the wire form; the
 * `*ToWire` functions only drop empty optional members.
 */
import type { JsonObject } from './json.js';

export type Role = 'user' | 'assistant';

/** Annotations a client may use to decide who sees a block and how prominently. */
export interface ContentAnnotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

interface BlockBase {
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}

export interface TextContent extends BlockBase {
  type: 'text';
  text: string;
}

export interface ImageContent extends BlockBase {
  type: 'image';
  /** Base64 data. */
  data: string;
  mimeType: string;
}

export interface AudioContent extends BlockBase {
  type: 'audio';
  data: string;
  mimeType: string;
}

export interface ResourceLink extends BlockBase {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64 data. */
  blob: string;
  _meta?: JsonObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource extends BlockBase {
  type: 'resource';
  resource: ResourceContents;
}

export type Content = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export function isTextResourceContents(value: ResourceContents): value is TextResourceContents {
  return typeof (value as TextResourceContents).text === 'string';
}

/** A text block. */
export function textContent(text: string, annotations?: ContentAnnotations): TextContent {
  return annotations ? { type: 'text', text, annotations } : { type: 'text', text };
}

export function imageContent(data: string, mimeType: string): ImageContent {
  return { type: 'image', data, mimeType };
}

export function audioContent(data: string, mimeType: string): AudioContent {
  return { type: 'audio', data, mimeType };
}

export interface ResourceLinkOptions {
  title?: string;
  description?: string;
  mimeType?: string;
  priority?: number;
  size?: number;
}

/** A link to a resource; `mimeType` defaults to JSON because the catalog's resources are JSON. */
export function resourceLink(uri: string, name: string, options: ResourceLinkOptions = {}): ResourceLink {
  const link: ResourceLink = { type: 'resource_link', uri, name };
  if (options.title) link.title = options.title;
  if (options.description) link.description = options.description;
  link.mimeType = options.mimeType ?? 'application/json';
  if (options.size !== undefined) link.size = options.size;
  if (options.priority !== undefined) link.annotations = { priority: options.priority };
  return link;
}

export function embeddedResource(
  resource: ResourceContents,
  annotations?: ContentAnnotations,
): EmbeddedResource {
  return annotations ? { type: 'resource', resource, annotations } : { type: 'resource', resource };
}

function hasKeys(value: object | undefined): value is object {
  return value !== undefined && Object.keys(value).length > 0;
}

/** Wire object for one content block: empty annotations, empty `_meta` and unset fields left out. */
export function contentToWire(block: Content): JsonObject {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    if (value === undefined || value === null) continue;
    if ((key === 'annotations' || key === '_meta') && !hasKeys(value as object)) continue;
    if (block.type === 'resource_link' && value === '') continue;
    out[key] = key === 'resource' ? resourceContentsToWire(value as ResourceContents) : value;
  }
  return out as JsonObject;
}

export function resourceContentsToWire(contents: ResourceContents): JsonObject {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(contents)) {
    if (value === undefined || value === null) continue;
    if (key === '_meta' && !hasKeys(value as object)) continue;
    out[key] = value;
  }
  return out as JsonObject;
}
