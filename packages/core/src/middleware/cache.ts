/**
 * `CachingMiddleware`: serves repeated read-only calls from memory, per principal, without
 * skipping the policy. Results are stored after the output pipeline, so an entry is already
 * transformed for the principal that caused it and is only ever served to that principal.
 */
import type { ResourceContents } from '../content.js';
import { canonicalJson, type JsonValue } from '../json.js';
import type { Layer } from '../layer/layer.js';
import { LayerConfigError } from '../layer/options.js';
import { MetaKey } from '../meta.js';
import { PromptResult, ToolResult } from '../results.js';
import type { AnySpec } from '../specs/index.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import {
  fromCachedResponse,
  InProcessResponseCache,
  type ResponseCacheStore,
  toCachedResponse,
} from './cache-store.js';
import { isErrorResult } from './outcome.js';
import type { CallInfo, CallResult, NextFn } from './types.js';

export interface CachingOptions {
  /** Seconds an entry lives. Default 60. */
  ttl?: number;
  /** Entries kept; the least recently used goes first. Default 256. */
  maxsize?: number;
  /** Replaces the default test (read-only and idempotent tools). Completions are never cached. */
  predicate?: (info: CallInfo) => boolean;
  /** Also cache resource reads. Default false. */
  cacheResources?: boolean;
  /**
   * Where entries live. Default: this process's memory, bounded by `maxsize`. A shared store
   * lets replicas serve each other's results; every hit still passes the policy check here.
   */
  store?: ResponseCacheStore;
}

export interface CacheStats {
  size: number;
  hits: number;
  misses: number;
  ttl: number;
}

/** Mark a copy as served from the cache: `_meta` of a tool or prompt result, of each resource content. */
function markHit(result: CallResult): CallResult {
  const hit: JsonValue = 'hit';
  if (result instanceof ToolResult || result instanceof PromptResult) {
    result.meta[MetaKey.cache] = hit;
  } else if (Array.isArray(result)) {
    for (const contents of result as ResourceContents[])
      contents._meta = { ...contents._meta, [MetaKey.cache]: hit };
  }
  return result;
}

function isWrite(spec: AnySpec<unknown>): boolean {
  return spec.kind === 'tool' && spec.annotations.readOnlyHint !== true;
}

export class CachingMiddleware {
  /** Pass this to the layer (`middleware: [cache.middleware]` or `layer.use(cache.middleware)`). */
  readonly middleware: AppAgnosticMiddleware;
  readonly ttl: number;
  readonly maxsize: number;
  private readonly predicate: ((info: CallInfo) => boolean) | undefined;
  private readonly cacheResources: boolean;
  private readonly store: ResponseCacheStore;
  private hits = 0;
  private misses = 0;

  constructor(options: CachingOptions = {}) {
    this.ttl = options.ttl ?? 60;
    this.maxsize = options.maxsize ?? 256;
    if (!(this.ttl >= 0))
      throw new LayerConfigError('CachingMiddleware ttl must be 0 or more seconds', 'ttl');
    if (!(this.maxsize >= 0))
      throw new LayerConfigError('CachingMiddleware maxsize must not be negative', 'maxsize');
    this.predicate = options.predicate;
    this.cacheResources = options.cacheResources ?? false;
    this.store = options.store ?? new InProcessResponseCache(this.maxsize);
    this.middleware = (info, next) => this.handle(info, next);
  }

  private cacheable<TApp>(info: CallInfo<TApp>): boolean {
    if (info.kind === 'completion') return false;
    if (this.predicate) return this.predicate(info as unknown as CallInfo);
    if (info.kind === 'tool') return info.spec.kind === 'tool' && info.spec.isCacheable;
    return info.kind === 'resource' && this.cacheResources;
  }

  private key<TApp>(info: CallInfo<TApp>): string | undefined {
    try {
      return canonicalJson([
        info.principal.id,
        info.principal.sortedRoles(),
        info.kind,
        info.name,
        info.arguments,
      ]);
    } catch {
      return undefined; // arguments JSON cannot represent: do not cache
    }
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    if (isWrite(info.spec as AnySpec<unknown>)) {
      // A write may change what any read returns. Clear before, so nothing stale is served
      // while it runs, and after, in case a read that started earlier stored its result meanwhile.
      await this.invalidate();
      try {
        return await next(info);
      } finally {
        await this.invalidate();
      }
    }
    if (this.ttl === 0 || this.maxsize === 0 || !this.cacheable(info)) return next(info);
    const key = this.key(info);
    if (key === undefined) return next(info);

    const cached = await this.store.get(key);
    if (cached) {
      // The step a hit skips in the terminal: access, rate limit and the policy's own audit.
      await info.context.layer.policy.checkCall(info.spec as AnySpec, info.principal, {
        kind: info.kind,
        name: info.name,
        arguments: info.arguments,
      });
      this.hits += 1;
      return markHit(fromCachedResponse(cached));
    }
    this.misses += 1;
    const result = await next(info);
    if (!isErrorResult(result)) await this.store.set(key, toCachedResponse(result), this.ttl);
    return result;
  }

  /** Clear the cache on every change event of the layer. Returns a function that stops listening. */
  attach<TApp>(layer: Layer<TApp>): () => void {
    return layer.onChange(() => this.invalidate());
  }

  /** Drop every entry. A promise when the store is shared (writes wait for it). */
  invalidate(): void | Promise<void> {
    return this.store.clear();
  }

  /** `size` counts what this process's store holds; a shared store that cannot tell says 0. */
  stats(): CacheStats {
    return { size: this.store.size ?? 0, hits: this.hits, misses: this.misses, ttl: this.ttl };
  }
}
