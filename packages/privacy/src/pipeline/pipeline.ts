/**
 * Pipelines: an ordered list of built transforms applied to one value with one report.
 */
import { AliasMap } from '../transforms/alias.js';
import { Redactor } from '../transforms/redact/index.js';
import { UntrustedTextGuard } from '../transforms/sanitize.js';
import { Substitution } from '../transforms/substitute.js';
import type { Direction, Transform, TransformContext, TransformReport } from '../types.js';
import { buildRegistered, type TransformBuildContext } from './registry.js';
import { normalizeSpec, type TransformSpec } from './spec.js';

/** Builds one transform from a spec. */
export function buildTransform(spec: TransformSpec, build: TransformBuildContext = {}): Transform {
  const n = normalizeSpec(spec);
  return buildRegistered(n.type, n.options, build, n.id);
}

/** Options for {@link Pipeline.run}: a context without the report, direction defaulting to output. */
export type RunOptions = Partial<Omit<TransformContext, 'report'>> & { report?: TransformReport };

export class Pipeline {
  readonly transforms: readonly Transform[];

  constructor(transforms: readonly Transform[]) {
    this.transforms = [...transforms];
  }

  get isEmpty(): boolean {
    return this.transforms.length === 0;
  }

  /** Runs every transform in order; each adds to `ctx.report`. */
  apply(value: unknown, ctx: TransformContext): unknown {
    let v = value;
    for (const t of this.transforms) v = t.apply(v, ctx);
    return v;
  }

  /** Convenience: builds the context, runs, and returns the value with its report. */
  run(value: unknown, options: RunOptions = {}): { value: unknown; report: TransformReport } {
    const direction: Direction = options.direction ?? 'output';
    const ctx: TransformContext = { ...options, direction, report: options.report ?? {} };
    return { value: this.apply(value, ctx), report: ctx.report };
  }

  /** Alias tables of `alias` and `substitute` steps, for the input-side depseudonymiser. */
  aliasMaps(): AliasMap[] {
    const out: AliasMap[] = [];
    for (const t of this.transforms) {
      if (t instanceof AliasMap && t.size) out.push(t);
      else if (t instanceof Substitution && t.aliasMap.size) out.push(t.aliasMap);
    }
    return out;
  }

  /**
   * True when this (output) pipeline can produce something the input side must reverse:
   * pseudonyms, aliases, or fenced text the model may copy back.
   */
  needsDepseudonymizer(): boolean {
    return this.transforms.some(
      (t) =>
        (t instanceof Redactor && t.plan.pseudonymizes) ||
        ((t instanceof AliasMap || t instanceof Substitution) && this.aliasMaps().length > 0) ||
        (t instanceof UntrustedTextGuard && t.fences),
    );
  }
}

/** The shared empty pipeline. */
export const IDENTITY: Pipeline = new Pipeline([]);

/** Builds a pipeline from specs; an unknown type or a bad option fails here, not on first use. */
export function buildPipeline(specs: readonly TransformSpec[], build: TransformBuildContext = {}): Pipeline {
  if (specs.length === 0) return IDENTITY;
  return new Pipeline(specs.map((s) => buildTransform(s, build)));
}
