/**
 * Where the response cache keeps its entries. The middleware decides what is cached, checks the
 * policy on every hit and marks hits; a store only holds plain-JSON responses under opaque keys.
 * The in-process store (a bounded LRU map) is the default; a shared store (for example in Redis,
 * so replicas serve each other's results) implements the same port and may answer asynchronously.
 */
import type { Content, ResourceContents } from '../content.js';
import { cloneJson, type JsonObject, type JsonValue } from '../json.js';
import type { PromptMessage } from '../results.js';
import { PromptResult, ToolResult } from '../results.js';
import type { CallResult } from './types.js';

/** A cached result as plain JSON, so any store can hold it. */
export type CachedResponse =
  | {
      readonly type: 'tool';
      readonly content: Content[];
      readonly structured?: JsonObject;
      readonly isError: boolean;
      readonly meta: Record<string, JsonValue>;
    }
  | {
      readonly type: 'prompt';
      readonly messages: PromptMessage[];
      readonly description?: string;
      readonly meta: Record<string, JsonValue>;
    }
  | { readonly type: 'resource'; readonly contents: ResourceContents[] };

export interface ResponseCacheStore {
  get(key: string): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  /** Keep `response` for `ttlSeconds`. */
  set(key: string, response: CachedResponse, ttlSeconds: number): void | Promise<void>;
  /** Drop every entry (a write or a change event may have made any of them stale). */
  clear(): void | Promise<void>;
  /** Entries held, where the store can tell cheaply; the in-process store can. */
  readonly size?: number;
}

/** Plain JSON of a result: a deep copy, so nobody can change what the store holds. */
export function toCachedResponse(result: CallResult): CachedResponse {
  if (result instanceof ToolResult) {
    const cached: CachedResponse = {
      type: 'tool',
      content: cloneJson(result.content),
      isError: result.isError,
      meta: cloneJson(result.meta),
      ...(result.structured === undefined ? {} : { structured: cloneJson(result.structured) }),
    };
    return cached;
  }
  if (result instanceof PromptResult) {
    return {
      type: 'prompt',
      messages: cloneJson(result.messages),
      meta: cloneJson(result.meta),
      ...(result.description === undefined ? {} : { description: result.description }),
    };
  }
  return { type: 'resource', contents: cloneJson(result as ResourceContents[]) };
}

/** A fresh result from a cached response (copied, so the caller may change it freely). */
export function fromCachedResponse(cached: CachedResponse): CallResult {
  const copy = cloneJson(cached);
  if (copy.type === 'tool') {
    return new ToolResult({
      content: copy.content,
      structured: copy.structured,
      isError: copy.isError,
      meta: copy.meta,
    });
  }
  if (copy.type === 'prompt') return new PromptResult(copy.messages, copy.description, copy.meta);
  return copy.contents;
}

interface Entry {
  response: CachedResponse;
  expires: number;
}

/** This process's memory, least recently used first out: the behaviour of a single server. */
export class InProcessResponseCache implements ResponseCacheStore {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxsize: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
    return this.entries.size;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.response;
  }

  set(key: string, response: CachedResponse, ttlSeconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { response, expires: this.now() + ttlSeconds * 1000 });
    while (this.entries.size > this.maxsize) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
