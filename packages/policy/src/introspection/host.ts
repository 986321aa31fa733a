/**
 * What the introspection modules read from a policy. `Policy` hands over its public surface plus
 * a few closures over its private state, so the privacy tools see exactly what the layer uses and
 * nothing here reaches into the policy's internals.
 */
import type { AnySpec, Capability, Logger, Principal, Sensitivity } from '@cloudg/core';
import type { AliasMap, Pipeline, PseudonymVault, VaultStats } from '@cloudg/privacy';
import type { DecisionCounters, DecisionEntry } from '../audit/decision-log.js';
import type { PolicyDescription } from '../describe.js';
import type { NormalizedSpec } from '../pipeline/specs.js';
import type { PolicyConfig } from '../schema/config.js';

/** The vault methods introspection uses beyond `PseudonymVault`; @cloudg/privacy's TokenVault has them all. */
export interface IntrospectedVault extends PseudonymVault {
  /** Entity type and value of one exact pseudonym. */
  entry?(token: string, options?: { namespace?: string }): { entity: string; real: string } | undefined;
  stats?(): Pick<VaultStats, 'entries' | 'entities' | 'key_source' | 'scope' | 'counters'>;
}

/** A pipeline as specs and as built transforms, index for index. */
export interface BuiltPipeline {
  specs: readonly NormalizedSpec[];
  pipeline: Pipeline;
}

export interface IntrospectionHost {
  readonly name: string;
  readonly description: string;
  readonly loadedFrom: string;
  readonly extendsChain: readonly string[];
  readonly config: PolicyConfig;
  readonly vault: IntrospectedVault;
  readonly counters: Readonly<DecisionCounters>;
  readonly auditLog: DecisionEntry[];
  maxSensitivityFor(principal: Principal): Sensitivity | null;
  deniedCapabilitiesFor(principal: Principal): Capability[];
  /** The caller's generic output pipeline (section 10.5), built with the policy's vault. */
  genericPipeline(principal: Principal): BuiltPipeline;
  /** The specs of a primitive's output pipeline for the caller. */
  outputSpecs(spec: AnySpec, principal: Principal): readonly NormalizedSpec[];
  /** Build specs with another vault (previews); nothing built here is cached by the policy. */
  buildWith(vault: PseudonymVault, specs: readonly NormalizedSpec[]): Pipeline;
  /** Alias tables of every output pipeline the caller can get, whatever the primitive. */
  callerAliases(principal: Principal): AliasMap[];
  /** The 12-hex keyed hash the decision log gives an argument value. */
  hashArgument(name: string, value: unknown): string;
  /** The policy's `describe()`: settings and origin, without the vault key. */
  describe(): PolicyDescription;
  /** The `cloudg.audit` logger. */
  readonly auditLogger: Logger;
}
