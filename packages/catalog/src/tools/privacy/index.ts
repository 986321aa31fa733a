import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerListDetectors } from './list-detectors.js';
import { registerPreviewTransform } from './preview-transform.js';
import { registerPrivacyAuditLog } from './privacy-audit-log.js';
import { registerPrivacyStatus } from './privacy-status.js';
import { registerRevealToken } from './reveal-token.js';

export { PREVIEW_TRANSFORM_HINTS } from './preview-transform.js';
export { REVEAL_TRANSFORM_HINTS } from './reveal-token.js';

/** Register the privacy tools: privacy_status, preview_transform, list_detectors, privacy_audit_log, reveal_token. */
export function registerPrivacyTools(registry: Registry<Workspace>): void {
  registerPrivacyStatus(registry);
  registerPreviewTransform(registry);
  registerListDetectors(registry);
  registerPrivacyAuditLog(registry);
  registerRevealToken(registry);
}
