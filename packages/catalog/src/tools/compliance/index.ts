import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerComplianceGaps } from './compliance-gaps.js';
import { registerComplianceSummary } from './compliance-summary.js';
import { registerControlStatus } from './control-status.js';
import { registerListControls } from './list-controls.js';
import { registerListFrameworks } from './list-frameworks.js';

/**
 * Register the five compliance tools: list_frameworks, compliance_summary, list_controls,
 * control_status, compliance_gaps.
 */
export function registerComplianceTools(registry: Registry<Workspace>): void {
  registerListFrameworks(registry);
  registerComplianceSummary(registry);
  registerListControls(registry);
  registerControlStatus(registry);
  registerComplianceGaps(registry);
}
