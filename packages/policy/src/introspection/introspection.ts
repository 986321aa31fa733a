/** `PolicyIntrospection` for @cloudg/policy: what a policy shows of itself to a caller. */
import type {
  AnySpec,
  DecisionLogQuery,
  DecisionLogView,
  PolicyDescriptionView,
  PolicyDetectors,
  PolicyIntrospection,
  PolicyStatus,
  Principal,
  RevealResult,
  TransformPreview,
} from '@cloudg/core';
import { decisionLog } from './decisions.js';
import { listDetectors } from './detectors.js';
import type { IntrospectionHost } from './host.js';
import { policyOverview } from './overview.js';
import { preview } from './preview.js';
import { reveal } from './reveal.js';
import { privacyStatus } from './status.js';

export class PolicyIntrospector implements PolicyIntrospection {
  constructor(private readonly host: IntrospectionHost) {}

  /** The policy as it applies to the caller; `visibleTools` is the number of tools the caller is shown. */
  status(principal: Principal, facts: { visibleTools: number }): PolicyStatus {
    return privacyStatus(this.host, principal, facts);
  }

  /** Transformed sample data and the transform report, from a throwaway vault. */
  async preview(data: unknown, options: { principal: Principal; tool?: AnySpec }): Promise<TransformPreview> {
    return preview(this.host, data, options);
  }

  /** Detectors and key rules with the caller's strategies, optionally for one category. */
  listDetectors(principal: Principal, category?: string): PolicyDetectors {
    return listDetectors(this.host, principal, category);
  }

  /** The newest decisions the caller may see. */
  decisionLog(principal: Principal, query: DecisionLogQuery): DecisionLogView {
    return decisionLog(this.host, principal, query);
  }

  /** The real value behind a pseudonym; logs a warning with a keyed hash of the token. */
  reveal(token: string, principal: Principal): RevealResult {
    return reveal(this.host, token, principal);
  }

  /** The policy's settings, vault statistics and counters; never the vault key. */
  describe(): PolicyDescriptionView {
    return policyOverview(this.host);
  }
}
