/**
 * Where suppressions outlive the process. Without a state directory (the default, as in the
 * reference) a suppression lives only on the finding in memory and unloading the dataset loses
 * it. With one, every suppress and unsuppress is written to `<state dir>/suppressions.json`
 * before the dataset changes, and a dataset loaded later under the same name gets the recorded
 * decisions back: triage work survives a restart or a redeploy.
 *
 * Decisions are keyed by dataset name and finding id. Finding ids are stable across reloads
 * (a findings.json carries them; scanner findings get deterministic UUIDv5-style ids), and the
 * dataset name is the operator's (`--dataset prod=...`) or derived from the file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { McpLayerError } from '@cloudg/core';
import { z } from 'zod';
import type { Dataset } from '../dataset/dataset.js';

export const SUPPRESSIONS_FILE = 'suppressions.json';
const FORMAT = 'cloudg-suppressions';

/** One triage decision on one finding: suppressed (with why) or explicitly restored. */
export interface SuppressionDecision {
  suppressed: boolean;
  /** Why it was suppressed; null for a restore. */
  reason: string | null;
  /** The principal id of the caller who decided. */
  by: string;
  /** ISO 8601, UTC. */
  at: string;
}

const DecisionSchema = z.strictObject({
  suppressed: z.boolean(),
  reason: z.string().nullable(),
  by: z.string(),
  at: z.string(),
});

const FileSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(1),
  datasets: z.record(z.string(), z.record(z.string(), DecisionSchema)),
});

export type SuppressionStoreErrorCode = 'state_unreadable' | 'state_write_failed';

/** The state file cannot be read at start-up, or a decision cannot be written. */
export class SuppressionStoreError extends McpLayerError {
  override readonly code: SuppressionStoreErrorCode;

  constructor(code: SuppressionStoreErrorCode, message: string, options: { path: string; cause?: unknown }) {
    super(message, { data: { path: options.path }, cause: options.cause });
    this.code = code;
  }
}

/** Write the finding's fields from a decision (the fields `get_finding` shows). */
export function applyDecision(finding: Dataset['findings'][number], decision: SuppressionDecision): void {
  finding.is_suppressed = decision.suppressed;
  finding.suppression_reason = decision.suppressed ? decision.reason : null;
  if (decision.suppressed) {
    finding.suppressed_by = decision.by;
    finding.suppressed_at = decision.at;
  } else {
    delete finding.suppressed_by;
    delete finding.suppressed_at;
  }
}

export class SuppressionStore {
  /** The file decisions are kept in, or null when they live only in memory. */
  readonly path: string | null;
  readonly #decisions = new Map<string, Map<string, SuppressionDecision>>();

  /**
   * `dir` null or absent: nothing is kept. Otherwise an existing file is read now, so a damaged
   * one stops start-up instead of silently dropping the triage it holds; the directory is created
   * by the first write.
   */
  constructor(dir?: string | null) {
    this.path = dir ? join(dir, SUPPRESSIONS_FILE) : null;
    if (this.path) this.#read(this.path);
  }

  get persistent(): boolean {
    return this.path !== null;
  }

  /** Decisions recorded for a dataset name (a copy), in the order they were made. */
  decisions(dataset: string): Map<string, SuppressionDecision> {
    return new Map(this.#decisions.get(dataset) ?? []);
  }

  /**
   * Record decisions for a dataset and write the file. Throws SuppressionStoreError when the file
   * cannot be written, in which case nothing is recorded either (the caller changes the dataset
   * only after this returns).
   */
  record(dataset: string, decisions: ReadonlyMap<string, SuppressionDecision>): void {
    if (decisions.size === 0) return;
    if (this.path) this.#save(this.path, dataset, decisions);
    // Told after the save, so a decision that could not be kept is never shared either.
    this.#recorded?.(dataset, decisions);
  }

  #recorded: ((dataset: string, decisions: ReadonlyMap<string, SuppressionDecision>) => void) | undefined;

  /**
   * Be told of every decision recorded (a workspace shared by replicas passes them on); one
   * listener, which replaces any previous one.
   */
  onRecord(listener: (dataset: string, decisions: ReadonlyMap<string, SuppressionDecision>) => void): void {
    this.#recorded = listener;
  }

  #save(path: string, dataset: string, decisions: ReadonlyMap<string, SuppressionDecision>): void {
    const next = new Map(this.#decisions.get(dataset) ?? []);
    for (const [id, decision] of decisions) next.set(id, decision);
    const previous = this.#decisions.get(dataset);
    this.#decisions.set(dataset, next);
    try {
      this.#write(path);
    } catch (error) {
      if (previous) this.#decisions.set(dataset, previous);
      else this.#decisions.delete(dataset);
      throw new SuppressionStoreError(
        'state_write_failed',
        'Could not save the suppression to the state directory; nothing was changed.',
        { path, cause: error },
      );
    }
  }

  /**
   * Put the recorded decisions back on a dataset's findings (ids it does not hold are kept for a
   * later load). Returns how many findings changed.
   */
  apply(dataset: Dataset): number {
    const decisions = this.#decisions.get(dataset.name);
    if (!decisions || decisions.size === 0) return 0;
    let changed = 0;
    for (const f of dataset.findings) {
      const decision = decisions.get(f.id);
      if (!decision) continue;
      const same =
        f.is_suppressed === decision.suppressed &&
        (!decision.suppressed ||
          (f.suppression_reason === decision.reason &&
            f.suppressed_by === decision.by &&
            f.suppressed_at === decision.at));
      if (same) continue;
      applyDecision(f, decision);
      changed += 1;
    }
    return changed;
  }

  #read(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      // Raised at start-up for the operator, never to a tool caller: the message names the file.
      throw new SuppressionStoreError(
        'state_unreadable',
        `Cannot read the suppressions state file ${path}.`,
        {
          path,
          cause: error,
        },
      );
    }
    let parsed: z.output<typeof FileSchema>;
    try {
      parsed = FileSchema.parse(JSON.parse(text));
    } catch (error) {
      throw new SuppressionStoreError(
        'state_unreadable',
        `${path} is not a cloudg suppressions file (version 1); fix or move it.`,
        { path, cause: error },
      );
    }
    for (const [dataset, decisions] of Object.entries(parsed.datasets)) {
      this.#decisions.set(dataset, new Map(Object.entries(decisions)));
    }
  }

  /**
   * Write the whole file to a temporary name and rename it over the old one, so a crash mid-write
   * leaves the previous file intact. Synchronous: decisions are small, and a write that lands
   * before the call returns cannot be reordered with the next one.
   */
  #write(path: string): void {
    const datasets: Record<string, Record<string, SuppressionDecision>> = {};
    for (const [name, decisions] of this.#decisions) datasets[name] = Object.fromEntries(decisions);
    const body = `${JSON.stringify({ format: FORMAT, version: 1, datasets }, null, 1)}\n`;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    // The reasons may name assets: readable by the server's user only.
    writeFileSync(temporary, body, { mode: 0o600 });
    renameSync(temporary, path);
  }
}
