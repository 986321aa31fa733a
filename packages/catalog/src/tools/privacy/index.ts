import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';

/** Register the privacy tools: privacy_status, preview_transform, list_detectors, privacy_audit_log, reveal_token. */
export function registerPrivacyTools(registry: Registry<Workspace>): void {
  void registry;
}
