/** Tool and prompt results, with their wire shapes. */
import { type Content, contentToWire, textContent } from './content.js';
import type { JsonObject, JsonValue } from './json.js';
import { MetaKey } from './meta.js';

export interface ToolResultInit {
  content?: Content[];
  structured?: JsonObject;
  isError?: boolean;
  meta?: Record<string, JsonValue>;
}

/** What a tool call produces. Handlers may build one themselves to control every block. */
export class ToolResult {
  content: Content[];
  structured: JsonObject | undefined;
  isError: boolean;
  meta: Record<string, JsonValue>;

  constructor(init: ToolResultInit = {}) {
    this.content = init.content ?? [];
    this.structured = init.structured;
    this.isError = init.isError ?? false;
    this.meta = init.meta ?? {};
  }

  /** An error result: the message as its first text block, then any `more` blocks, and the given `_meta` entries. */
  static error(
    message: string,
    meta: Record<string, JsonValue> = {},
    more: readonly Content[] = [],
  ): ToolResult {
    return new ToolResult({ content: [textContent(message), ...more], isError: true, meta });
  }

  /** The `cloudg/error_code` of an error result, if any. */
  get errorCode(): number | string | undefined {
    const code = this.meta[MetaKey.errorCode];
    return typeof code === 'number' || typeof code === 'string' ? code : undefined;
  }

  /** The MCP `CallToolResult` object. */
  toWire(): JsonObject {
    const wire: JsonObject = { content: this.content.map(contentToWire), isError: this.isError };
    if (this.structured !== undefined) wire.structuredContent = this.structured;
    if (Object.keys(this.meta).length > 0) wire._meta = this.meta;
    return wire;
  }
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: Content;
}

/** What `prompts/get` returns. */
export class PromptResult {
  description: string | undefined;
  messages: PromptMessage[];
  meta: Record<string, JsonValue>;

  constructor(messages: PromptMessage[], description?: string, meta: Record<string, JsonValue> = {}) {
    this.messages = messages;
    this.description = description;
    this.meta = meta;
  }

  toWire(): JsonObject {
    const wire: JsonObject = {
      messages: this.messages.map((m) => ({ role: m.role, content: contentToWire(m.content) })),
    };
    if (this.description !== undefined) wire.description = this.description;
    if (Object.keys(this.meta).length > 0) wire._meta = this.meta;
    return wire;
  }
}

/** A user message holding one text block. */
export function userMessage(text: string): PromptMessage {
  return { role: 'user', content: textContent(text) };
}

/** The result of `completion/complete`. */
export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}
