/**
 * Shared types of detectors, transforms and pipelines.
 */
import type { KnownIdentifiers } from './identifiers/lexicon.js';

/** Any JSON value. Transforms accept `unknown` and treat anything else as an opaque leaf. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `output` for data going to the model, `input` for arguments coming from it. */
export type Direction = 'output' | 'input';

/** The kind of MCP primitive a value belongs to. */
export type PrimitiveKind = 'tool' | 'resource' | 'resource_template' | 'prompt' | 'completion';

/** Sensitivity levels of primitives, lowest first. */
export type Sensitivity = 'public' | 'internal' | 'confidential' | 'restricted';

/**
 * What the transforms need from a token vault. `TokenVault` from this package implements it;
 * any object with the same methods works (tests, shared vaults across processes).
 */
export interface PseudonymVault {
  /** A deterministic, format-preserving pseudonym for `value` as `entity`. */
  pseudonymize(value: string, entity: string, options?: { namespace?: string }): string;
  /** The real value of one exact pseudonym, or null/undefined when unknown. */
  detokenize(token: string, options?: { namespace?: string }): string | null | undefined;
  /** An existing pseudonym of `value` without creating one. */
  lookup(value: string, entity: string, options?: { namespace?: string }): string | null | undefined;
  /** Replace every known pseudonym inside free text. */
  detokenizeText(text: string, options?: { namespace?: string }): string;
  /** Keyed, irreversible digest (hex) of a value; used by the `hash` strategy. */
  hashValue(value: string, entity?: string): string;
  /** The namespace a principal's pseudonyms live in (`global` or `p:<id>`). */
  namespaceFor(principalId?: string | null): string;
}

/** The caller of a transform pass. */
export interface PrincipalInfo {
  id: string;
  roles?: readonly string[];
}

/**
 * Everything a transform may look at while it runs. `report` is shared by every transform of
 * one pass; it becomes `_meta["cloudg/transforms"]` and only ever holds counts and labels.
 */
export interface TransformContext {
  direction: Direction;
  report: TransformReport;
  principal?: PrincipalInfo;
  /** Overrides the vault the transform was built with. */
  vault?: PseudonymVault;
  kind?: PrimitiveKind;
  /** Tool or prompt name, or resource URI / URI template. */
  name?: string;
  category?: string;
  sensitivity?: Sensitivity;
  /** Policy name, shown in annotate's provenance when the transform has no `profile`. */
  policy?: string;
  /** Clock for annotate's provenance; defaults to `new Date()`. */
  now?: () => Date;
  /**
   * Identifiers the application knows by value (asset names, ids, account ids, tag values). The
   * redactor applies the identifier strategies to them wherever they stand, whatever key holds them.
   */
  identifiers?: KnownIdentifiers;
  /**
   * Real values the input side restored from pseudonyms during this request, each with the
   * pseudonym the caller sent. Shared by a request's input and output passes: the input pass
   * fills it, the output pass puts the pseudonym back wherever the real value would show.
   */
  restored?: Map<string, string>;
}

/** Counts per entity type, for example `{ aws_account_id: 2 }`. */
export type EntityCounts = Record<string, number>;

/** The transform report. Known keys are typed; custom transforms may add their own. */
export interface TransformReport {
  redacted?: EntityCounts;
  masked?: EntityCounts;
  hashed?: EntityCounts;
  pseudonymized?: EntityCounts;
  generalized?: EntityCounts;
  dropped?: EntityCounts;
  redacted_arguments?: EntityCounts;
  untrusted?: UntrustedReport;
  projection?: ProjectionReport;
  truncated?: boolean;
  aliased?: number;
  regex_replaced?: number;
  keys_renamed?: number;
  templated?: number;
  depseudonymized?: number;
  annotations?: Record<string, unknown>;
  content_annotations?: ContentAnnotations;
  [key: string]: unknown;
}

export interface UntrustedReport {
  stripped_chars: number;
  sanitized_fields: number;
  suspicious: number;
  /** Strings cut to a length cap; only present when something was cut. */
  truncated?: number;
  paths: string[];
  action: SuspiciousAction;
  notice: string;
}

export type SuspiciousAction = 'fence' | 'datamark' | 'redact' | 'flag';

export interface ProjectionReport {
  excluded?: number;
  keys_dropped?: number;
  lists_truncated?: number;
  strings_truncated?: number;
  depth_limited?: number;
  budget?: {
    max_chars: number;
    original_chars: number;
    final_chars: number;
    max_list: number | null;
    max_string: number | null;
  };
}

export interface ContentAnnotations {
  audience: Array<'user' | 'assistant'>;
  priority: number;
}

/** A built transform. `apply` must not mutate its input; unchanged subtrees may be shared. */
export interface Transform {
  /** The canonical type name (`redact`). */
  readonly name: string;
  /** The spec id; defaults to the type name. */
  readonly id: string;
  apply(value: unknown, ctx: TransformContext): unknown;
}
