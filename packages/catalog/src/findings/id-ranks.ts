import type { Dataset } from '../dataset/dataset.js';

/** The cache key of the id ranks (kept across triage, see triage-cache.ts). */
const ID_RANKS_KEY = 'findings:id-ranks';

/**
 * Every finding's id as a rank in text order (`<` on strings, as `sortFindings` compares; equal
 * ids equal ranks), shared by all the sort orders so that they compare integers. Sorting 100,000
 * ids is the longest single piece of the findings' preparation, so it can run in steps: runs of
 * `chunk` ids sorted with the built-in sort, then merged `chunk` ids at a time.
 */
function* rankIds(ids: readonly string[], chunk: number): Generator<void, Uint32Array, void> {
  const runs: string[][] = [];
  for (let from = 0; from < ids.length; from += chunk) {
    runs.push(ids.slice(from, from + chunk).sort());
    yield;
  }
  // A k-way merge: a binary heap of run numbers, smallest head first.
  const heads = new Int32Array(runs.length);
  const head = (r: number) => (runs[r] as string[])[heads[r] as number] as string;
  const heap = runs.map((_, r) => r);
  const below = (i: number, j: number) => head(heap[i] as number) < head(heap[j] as number);
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && below(l + 1, l) ? l + 1 : l;
      if (!below(c, i)) return;
      const swap = heap[i] as number;
      heap[i] = heap[c] as number;
      heap[c] = swap;
      i = c;
    }
  };
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) siftDown(i);
  const rank = new Map<string, number>();
  let merged = 0;
  while (heap.length > 0) {
    const r = heap[0] as number;
    const id = head(r);
    if (!rank.has(id)) rank.set(id, rank.size);
    heads[r] = (heads[r] as number) + 1;
    if (heads[r] === (runs[r] as string[]).length) {
      heap[0] = heap[heap.length - 1] as number;
      heap.pop();
    }
    siftDown(0);
    merged += 1;
    if (merged % chunk === 0) yield;
  }
  return Uint32Array.from(ids, (id) => rank.get(id) ?? 0);
}

function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The id ranks of the dataset's findings, built at once when not built yet. */
export function idRanks(dataset: Dataset): Uint32Array {
  return dataset.derived(ID_RANKS_KEY, (d) =>
    drain(
      rankIds(
        d.findings.map((f) => f.id),
        Number.POSITIVE_INFINITY,
      ),
    ),
  );
}

/**
 * Build the id ranks in steps of `chunk` ids (findings/prepare.ts). They are kept only if the
 * dataset has not changed meanwhile; a reader that needs them first builds them at once.
 */
export function* idRankSteps(dataset: Dataset, chunk = 10_000): Generator<void, void, void> {
  if (dataset.isCached(ID_RANKS_KEY)) return;
  const version = dataset.version;
  const ranks = yield* rankIds(
    dataset.findings.map((f) => f.id),
    chunk,
  );
  if (dataset.version === version) dataset.derived(ID_RANKS_KEY, () => ranks);
}
