/**
 * The policy port: what the layer asks of a policy. `@cloudg/policy` implements it with profiles,
 * rate limits and transform pipelines; `allowAllPolicy` lets core run on its own.
 */
import type { CallKind } from './context.js';
import type { McpLayerError } from './errors.js';
import type { JsonValue } from './json.js';
import type { PolicyIntrospection } from './policy-introspection.js';
import type { Principal } from './principal.js';
import type { AnySpec } from './specs/index.js';

/** What a transform pass did: counts and labels, never the values it matched. */
export type TransformReport = Record<string, JsonValue>;

/**
 * Identifiers an application knows by value (for the catalog: its assets' names, ids, ARNs and
 * accounts, tag values and dataset names), each with the entity it is. A policy that pseudonymises
 * identifiers uses them to recognise `bastion` as a name wherever it stands, not only under keys
 * that happen to say so. Core only carries them from the layer to the pipelines.
 */
export interface IdentifierSource {
  /** Changes whenever the identifiers do, so what a policy derives from them can be cached by it. */
  readonly identifierRevision: number;
  /** Each identifier with its entity; when a value is listed twice, the first listing counts. */
  knownIdentifiers(): Iterable<readonly [value: string, entity: string]>;
}

export interface PipelineContext {
  direction: 'input' | 'output';
  principal: Principal;
  kind: CallKind;
  spec: AnySpec;
  /**
   * Stands for the request: the same object for its input and output runs, so a pipeline can
   * carry what the input run learnt (values it restored from pseudonyms) to the output run.
   */
  request: object;
  /** The application's known identifiers, when it has any. */
  identifiers?: IdentifierSource;
}

export interface PipelineRun {
  value: unknown;
  report: TransformReport;
}

/** A ready-to-run sequence of transforms. */
export interface TransformPipeline {
  readonly isEmpty: boolean;
  run(value: unknown, context: PipelineContext): PipelineRun | Promise<PipelineRun>;
}

export interface CallCheck {
  kind: CallKind;
  name: string;
  arguments: Record<string, unknown>;
}

export interface PolicyPort {
  readonly name: string;
  /** Whether the principal may see the primitive at all (hidden ones look unknown). */
  isAllowed(spec: AnySpec, principal: Principal): boolean;
  /**
   * Access and rate-limit check for one call; throws (or rejects with) AccessDeniedError or
   * RateLimitedError. A promise when rate-limit buckets live in a shared store.
   */
  checkCall(spec: AnySpec, principal: Principal, call: CallCheck): void | Promise<void>;
  /** Transforms applied to what goes back to the caller; undefined or empty for none. */
  outputPipeline(spec: AnySpec, principal: Principal): TransformPipeline | undefined;
  /** Transforms applied to the caller's arguments before validation. */
  inputPipeline(spec: AnySpec, principal: Principal): TransformPipeline | undefined;
  /** Record a call to an unknown or hidden name (decision `not_found`). */
  recordHidden?(kind: CallKind, name: string, principal: Principal): void;
  /**
   * The question to ask the person before this tool call runs, or undefined when it needs no
   * confirmation. Called with the validated arguments, after `checkCall`. The layer asks it with
   * `ToolContext.confirm` (key `cloudg-confirm`): a client without elicitation gets -32021, a
   * declined or dismissed question a `declined` error result, and the handler does not run.
   */
  confirmation?(spec: AnySpec, principal: Principal, call: CallCheck): string | undefined;
  /** Record that the input pipeline refused a call that `checkCall` had allowed. */
  recordRejection?(spec: AnySpec, principal: Principal, error: McpLayerError): void;
  /** What the policy can tell about itself (status, previews, detectors, decisions, reveals). */
  readonly introspection?: PolicyIntrospection;
  /** Persist the pseudonym vault, if the policy has one with a path. */
  saveVault?(path?: string): string | null | Promise<string | null>;
}

/** Everything visible, everything allowed, no transforms. */
export const allowAllPolicy: PolicyPort = Object.freeze({
  name: 'allow-all',
  isAllowed: () => true,
  checkCall: () => {},
  outputPipeline: () => undefined,
  inputPipeline: () => undefined,
});
