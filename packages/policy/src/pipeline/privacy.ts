/**
 * Building running pipelines with @cloudg/privacy and adapting them to core's
 * `TransformPipeline`: one context per run (direction, principal, vault, primitive) and one report.
 */
import {
  InvalidArgumentsError,
  type PipelineContext,
  type PipelineRun,
  type TransformPipeline,
  type TransformReport,
} from '@cloudg/core';
import {
  buildTransform,
  IDENTITY,
  Pipeline,
  PrivacyError,
  type TransformReport as PrivacyReport,
  type PseudonymVault,
  type Transform,
  type TransformBuildContext,
  type TransformContext,
} from '@cloudg/privacy';
import { primitiveOf } from '../decide/primitive.js';
import { TransformSpecError } from '../errors.js';
import type { NormalizedSpec } from './specs.js';

/** A vault that may rewrite its file after a pass that issued pseudonyms. */
interface AutosavingVault {
  autosaveIfNeeded?(): boolean;
}

/** Core's view of a privacy pipeline. `isEmpty` is the privacy pipeline's own. */
export class PolicyPipeline implements TransformPipeline {
  constructor(
    readonly pipeline: Pipeline,
    private readonly policyName: string,
    private readonly vault: (PseudonymVault & AutosavingVault) | undefined,
  ) {}

  get isEmpty(): boolean {
    return this.pipeline.isEmpty;
  }

  run(value: unknown, context: PipelineContext): PipelineRun {
    const { principal } = context;
    // The kind and identity the decision already worked out for this spec (cached per spec).
    const primitive = primitiveOf(context.spec);
    const report: PrivacyReport = {};
    const ctx: TransformContext = {
      direction: context.direction,
      report,
      principal: { id: principal.id, roles: principal.sortedRoles() },
      kind: context.kind === 'completion' ? 'completion' : primitive.kind,
      name: primitive.identity,
      category: primitive.category,
      sensitivity: primitive.sensitivity,
      policy: this.policyName,
    };
    if (this.vault) ctx.vault = this.vault;
    let out: unknown;
    try {
      out = this.pipeline.apply(value, ctx);
    } catch (error) {
      // The secret guard refuses arguments with code -32602; core knows that as invalid arguments
      // (and then records the call as rejected).
      if (error instanceof PrivacyError && error.code === -32602) {
        throw new InvalidArgumentsError(error.message, { data: error.data, cause: error });
      }
      throw error;
    }
    this.vault?.autosaveIfNeeded?.();
    // Reports hold counts and labels only, which are JSON values.
    return { value: out, report: report as TransformReport };
  }
}

/**
 * Builds specs into privacy pipelines, reusing each built transform for every pipeline with the
 * same spec (transforms keep no state between calls beyond caches). Failures (an unknown type, a
 * bad option) become a TransformSpecError naming where the specs came from.
 */
export class TransformCache {
  private readonly built = new Map<string, Transform>();

  constructor(private readonly context: TransformBuildContext) {}

  pipeline(specs: readonly NormalizedSpec[], where: string): Pipeline {
    if (specs.length === 0) return IDENTITY;
    return new Pipeline(specs.map((spec) => this.transform(spec, where)));
  }

  private transform(spec: NormalizedSpec, where: string): Transform {
    let key: string | undefined;
    try {
      key = JSON.stringify(spec);
    } catch {
      key = undefined;
    }
    // Options holding live objects (alias maps handed to the depseudonymiser) are not cached.
    const cacheable =
      key !== undefined && !(spec.type === 'depseudonymize' && spec.options.aliases !== undefined);
    const hit = cacheable ? this.built.get(key as string) : undefined;
    if (hit) return hit;
    let transform: Transform;
    try {
      transform = buildTransform({ type: spec.type, id: spec.id, options: spec.options }, this.context);
    } catch (error) {
      if (error instanceof PrivacyError) {
        throw new TransformSpecError(
          `Invalid transform in ${where}: ${error.message}`,
          { where, code: error.code, ...error.data },
          error,
        );
      }
      throw error;
    }
    if (cacheable) this.built.set(key as string, transform);
    return transform;
  }
}
