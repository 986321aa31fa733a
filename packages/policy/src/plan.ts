/**
 * Everything the policy works out for one primitive and one kind of caller, computed once and
 * cached: the decision, the matching rules, the applicable rate limits and the pipelines.
 */
import type { AnySpec, Principal, TransformPipeline } from '@cloudg/core';
import type { Pipeline } from '@cloudg/privacy';
import type { Decision } from './decide/decide.js';
import type { Primitive } from './decide/primitive.js';
import type { CompiledRule } from './decide/rules.js';
import type { NormalizedSpec } from './pipeline/specs.js';
import type { CompiledLimit } from './rate/limits.js';

export interface CallPlan {
  readonly primitive: Primitive;
  readonly decision: Decision;
  readonly rules: readonly CompiledRule[];
  readonly limits: readonly CompiledLimit[];
  outputSpecs?: NormalizedSpec[];
  /** The built output transforms; the input side takes its alias tables from them. */
  outputBuilt?: Pipeline;
  inputSpecs?: NormalizedSpec[];
  output?: TransformPipeline;
  input?: TransformPipeline;
}

/** Plans keyed by spec, then by the caller's sorted roles (plus the id when a rule looks at ids). */
export class PlanCache {
  private readonly plans = new WeakMap<AnySpec, Map<string, CallPlan>>();
  private readonly keys = new WeakMap<Principal, string>();

  constructor(private readonly usesPrincipalId: boolean) {}

  key(principal: Principal): string {
    let key = this.keys.get(principal);
    if (key === undefined) {
      key = principal.sortedRoles().join('\u0000');
      if (this.usesPrincipalId) key += `\u0001${principal.id}`;
      this.keys.set(principal, key);
    }
    return key;
  }

  get(spec: AnySpec, principal: Principal, build: () => CallPlan): CallPlan {
    let bySpec = this.plans.get(spec);
    if (!bySpec) {
      bySpec = new Map();
      this.plans.set(spec, bySpec);
    }
    const key = this.key(principal);
    let plan = bySpec.get(key);
    if (!plan) {
      plan = build();
      bySpec.set(key, plan);
    }
    return plan;
  }
}
