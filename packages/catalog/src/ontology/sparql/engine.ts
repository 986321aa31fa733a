import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { McpLayerError, StringErrorCode } from '@cloudg/core';
import { Writer } from 'n3';
import type { Ontology } from '../ontology.js';
import { WORKER_SOURCE } from './worker-source.js';

/** A term as the worker sends it back. */
export interface SparqlTerm {
  t: 'uri' | 'literal' | 'bnode';
  v: string;
  dt?: string;
  lang?: string;
}

export type QueryOutcome =
  | { kind: 'boolean'; answer: boolean }
  | { kind: 'items'; items: Array<Record<string, SparqlTerm>>; more: boolean };

/** How long one query may run before its worker is terminated. */
export const DEFAULT_TIME_LIMIT_MS = 60_000;
/** Triples per N-Triples chunk handed to the worker. */
const CHUNK_TRIPLES = 50_000;

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

const ntriplesCache = new WeakMap<Ontology, string[]>();

/**
 * The ontology as N-Triples chunks, written with n3 once per build. The event loop gets a turn
 * between chunks (a million triples take seconds to write), and the signal is checked there.
 */
export async function ntriplesChunks(ontology: Ontology, signal?: AbortSignal): Promise<string[]> {
  const cached = ntriplesCache.get(ontology);
  if (cached) return cached;
  const chunks: string[] = [];
  for (let i = 0; i < ontology.quads.length; i += CHUNK_TRIPLES) {
    if (i > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    const writer = new Writer({ format: 'N-Triples' });
    chunks.push(writer.quadsToString(ontology.quads.slice(i, i + CHUNK_TRIPLES)));
  }
  ntriplesCache.set(ontology, chunks);
  return chunks;
}

/** A query stopped at the time limit: a `timeout` error result, like a handler that ran past its timeout. */
export class QueryTimeLimitError extends McpLayerError {
  override readonly code: string = StringErrorCode.Timeout;
}

/**
 * Read-only oxigraph stores in one worker thread, one store per ontology build (the two most
 * recent are kept). Requests run one at a time; a query that outlives the time limit, or whose
 * call is cancelled, terminates the worker, and the next request starts a fresh one (reloading
 * the store it needs).
 */
export class SparqlEngine {
  readonly timeLimitMs: number;
  #worker: Worker | undefined;
  #loaded = new Set<string>();
  #nextId = 1;
  #pending = new Map<number, (reply: Reply) => void>();
  #tail: Promise<unknown> = Promise.resolve();

  constructor(options: { timeLimitMs?: number } = {}) {
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  }

  /** Run a checked query (see guard.ts) against an ontology; at most `cap` + 1 items come back. */
  query(ontology: Ontology, text: string, cap: number, signal?: AbortSignal): Promise<QueryOutcome> {
    return this.#serial(async () => {
      await this.#ensureLoaded(ontology, signal);
      return (await this.#send({ op: 'query', key: ontology.key, text, cap }, signal, true)) as QueryOutcome;
    });
  }

  /** Serialise the ontology's store in a format oxigraph writes (a MIME type). */
  dump(ontology: Ontology, format: string, signal?: AbortSignal): Promise<string> {
    return this.#serial(async () => {
      await this.#ensureLoaded(ontology, signal);
      return (await this.#send({ op: 'dump', key: ontology.key, format }, signal, false)) as string;
    });
  }

  /** Stop the worker (idle or not). The engine starts a new one on the next request. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#reset(new Error('SPARQL engine closed'));
    await worker?.terminate();
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #ensureLoaded(ontology: Ontology, signal?: AbortSignal): Promise<void> {
    if (this.#worker && this.#loaded.has(ontology.key)) {
      // Mirror the worker's least-recently-used order, so both sides drop the same store.
      this.#loaded.delete(ontology.key);
      this.#loaded.add(ontology.key);
      return;
    }
    const chunks = await ntriplesChunks(ontology, signal);
    await this.#send({ op: 'load', key: ontology.key, chunks }, signal, false);
    this.#loaded.add(ontology.key);
    // The worker keeps two stores; forget what it has dropped.
    if (this.#loaded.size > 2) this.#loaded.delete(this.#loaded.values().next().value as string);
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const oxigraphPath = createRequire(import.meta.url).resolve('oxigraph');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { oxigraphPath, maxStores: 2 } });
    worker.on('message', (reply: Reply) => {
      const resolve = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      resolve?.(reply);
    });
    worker.on('error', (error) => {
      if (this.#worker === worker) this.#reset(error);
    });
    worker.on('exit', () => {
      if (this.#worker === worker) this.#reset(new Error('SPARQL worker exited'));
    });
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  /** Forget the worker and fail whatever waits on it. */
  #reset(reason: Error): void {
    this.#worker = undefined;
    this.#loaded.clear();
    const waiting = [...this.#pending.entries()];
    this.#pending.clear();
    for (const [id, resolve] of waiting) resolve({ id, ok: false, error: reason.message });
  }

  #send(
    message: Record<string, unknown>,
    signal: AbortSignal | undefined,
    limited: boolean,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = (error: unknown) => {
        cleanup();
        this.#pending.delete(id);
        // The query cannot be interrupted inside the worker: end the thread.
        if (this.#worker === worker) this.#reset(error instanceof Error ? error : new Error(String(error)));
        void worker.terminate();
        reject(error);
      };
      const onAbort = () => stop(signal?.reason);
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.unref();
      };
      this.#pending.set(id, (reply) => {
        cleanup();
        if (reply.ok) resolve(reply.result);
        else reject(new Error(reply.error));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (limited) {
        timer = setTimeout(
          () =>
            stop(
              new QueryTimeLimitError(
                `The query ran for more than ${Math.round(this.timeLimitMs / 1000)} seconds and was stopped. Narrow it: bind a subject, predicate or class, add LIMIT, or avoid patterns that multiply out.`,
              ),
            ),
          this.timeLimitMs,
        );
      }
      // Keep the process alive while a reply is owed; an idle worker does not hold it open.
      worker.ref();
      worker.postMessage({ id, ...message });
    });
  }
}

let shared: SparqlEngine | undefined;

/** The process-wide engine the tools and resources use. */
export function sparqlEngine(): SparqlEngine {
  if (!shared) shared = new SparqlEngine();
  return shared;
}

/** Replace the shared engine (tests use a short time limit); the old one is closed. */
export async function useSparqlEngine(engine: SparqlEngine): Promise<void> {
  const old = shared;
  shared = engine;
  if (old && old !== engine) await old.close();
}
