import type { Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';
import { registerAssetPrompts } from './asset.js';
import { registerCompliancePrompt } from './compliance.js';
import { registerDriftPrompt } from './drift.js';
import { registerIncidentPrompt } from './incident.js';
import { registerOverviewPrompts } from './posture.js';
import { registerRemediationPrompt } from './remediation.js';
import { registerTrustPrompt } from './trust.js';

export { completeFindingId, completeSeverity } from '../completions/findings.js';
export { completeFramework } from '../completions/frameworks.js';

/**
 * Register the eleven analysis prompts, in the order `prompts/list` shows them:
 * security_posture_review, executive_summary, attack_surface_report, investigate_asset,
 * blast_radius_assessment, change_impact_analysis, cross_account_trust_review,
 * compliance_gap_analysis, remediation_plan, incident_triage, drift_review.
 */
export function registerPrompts(registry: Registry<Workspace>): void {
  registerOverviewPrompts(registry);
  registerAssetPrompts(registry);
  registerTrustPrompt(registry);
  registerCompliancePrompt(registry);
  registerRemediationPrompt(registry);
  registerIncidentPrompt(registry);
  registerDriftPrompt(registry);
}
