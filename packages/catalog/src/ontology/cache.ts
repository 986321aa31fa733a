import { isMcpLayerError, StringErrorCode } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import { type BuildOptions, buildOntology } from './build.js';
import type { Ontology } from './ontology.js';

/**
 * The dataset's ontology, built on first use and kept in the dataset's derived cache (key
 * `ontology`, which the workspace listing reports), so any change to the dataset drops it like
 * the graph views. A build in progress is shared: a second caller waits for it instead of
 * building again; if the build that ran for someone else was cancelled, the waiter builds.
 */

interface Pending {
  promise?: Promise<Ontology>;
}

export interface OntologyAccess {
  ontology: Ontology;
  /** True when this call built it. */
  builtNow: boolean;
}

export async function ontologyOf(dataset: Dataset, options: BuildOptions = {}): Promise<OntologyAccess> {
  for (;;) {
    if (dataset.isCached('ontology'))
      return { ontology: dataset.derived<Ontology>('ontology', fail), builtNow: false };
    const pending = dataset.derived<Pending>('ontology.pending', () => ({}));
    if (pending.promise) {
      try {
        await pending.promise;
      } catch (error) {
        options.signal?.throwIfAborted();
        if (!isAbort(error)) throw error;
      }
      continue;
    }
    const version = dataset.version;
    const promise = buildOntology(dataset, options);
    pending.promise = promise;
    try {
      const ontology = await promise;
      // Publish only if the dataset did not change while the build ran.
      if (dataset.version === version) dataset.derived('ontology', () => ontology);
      return { ontology, builtNow: true };
    } finally {
      pending.promise = undefined;
    }
  }
}

function fail(): never {
  throw new Error('ontology cache read before it was built');
}

/** A build that stopped because its caller went away (cancelled, timed out), not because it failed. */
function isAbort(error: unknown): boolean {
  if (isMcpLayerError(error)) return error.code === StringErrorCode.Timeout || error.code === -32800;
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
