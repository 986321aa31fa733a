/** `PolicyIntrospection` for @cloudg/policy: what the catalog's privacy tools show of a policy. */
import type { AnySpec, JsonObject, PolicyIntrospection, Principal, TransformReport } from '@cloudg/core';
import { type DecisionLogResult, decisionLog } from './decisions.js';
import { type DetectorListingResult, listDetectors } from './detectors.js';
import type { IntrospectionHost } from './host.js';
import { preview } from './preview.js';
import { type RevealResult, reveal } from './reveal.js';
import { type PrivacyStatus, privacyStatus } from './status.js';

/** The results are plain JSON by construction; this only widens their static types. */
function json(value: PrivacyStatus | DetectorListingResult | DecisionLogResult | RevealResult): JsonObject {
  return value as unknown as JsonObject;
}

export class PolicyIntrospector implements PolicyIntrospection {
  constructor(private readonly host: IntrospectionHost) {}

  /** `privacy_status`; `visibleTools` is the number of tools the caller is shown. */
  status(principal: Principal, facts: { visibleTools: number }): JsonObject {
    return json(privacyStatus(this.host, principal, facts));
  }

  /** `preview_transform`: transformed sample data and the transform report. */
  async preview(
    data: unknown,
    options: { principal: Principal; tool?: AnySpec },
  ): Promise<{ transformed: unknown; report: TransformReport }> {
    return preview(this.host, data, options);
  }

  /** `list_detectors`, optionally for one category. */
  listDetectors(principal: Principal, category?: string): JsonObject {
    return json(listDetectors(this.host, principal, category));
  }

  /** `privacy_audit_log`. */
  decisionLog(principal: Principal, options: { limit: number; decision?: string }): JsonObject {
    return json(decisionLog(this.host, principal, options));
  }

  /** `reveal_token`; logs a warning with a keyed hash of the token. */
  reveal(token: string, principal: Principal): JsonObject {
    return json(reveal(this.host, token, principal));
  }
}
