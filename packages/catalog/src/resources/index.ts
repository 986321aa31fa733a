import type { Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';
import { registerAssetResources } from './assets.js';
import { registerComplianceResources } from './compliance.js';
import { registerDocsResources } from './docs.js';
import { registerFindingResources } from './findings.js';
import { registerGraphResources } from './graph.js';
import { registerLiveResources } from './live.js';
import { registerOntologyResources } from './ontology.js';
import { registerPolicyResources } from './policy.js';
import { registerPrivacyResources } from './privacy.js';
import { registerSchemaResources } from './schema.js';
import { registerWorkspaceResources } from './workspace.js';

/**
 * Register the resources and templates of the workspace, inventory and findings: `cloudg://workspace`,
 * `cloudg://datasets`, `cloudg://datasets/{dataset}/summary`, `cloudg://assets/{+ref}`,
 * `cloudg://assets/{+ref}/neighbors`, `cloudg://assets/{+ref}/findings`, and the findings'
 * `cloudg://findings/summary`, `cloudg://findings/{finding_id}` and `cloudg://findings/severity/{severity}`,
 * the compliance `cloudg://compliance` and `cloudg://compliance/{framework}`, and the graph's
 * `cloudg://graph/d3` and `cloudg://graph/{format}`, and the ontology's `cloudg://ontology/turtle` and
 * `cloudg://ontology/{format}`, and the live guard's `cloudg://ratelimit`; the vocabulary's
 * `cloudg://schema/...`, the user guide's `cloudg://docs` and `cloudg://docs/{topic}`, and the
 * caller's `cloudg://privacy/detectors`, and the serving policy's `cloudg://policy`.
 */
export function registerResources(registry: Registry<Workspace>): void {
  registerWorkspaceResources(registry);
  registerAssetResources(registry);
  registerFindingResources(registry);
  registerComplianceResources(registry);
  registerGraphResources(registry);
  registerOntologyResources(registry);
  registerLiveResources(registry);
  registerSchemaResources(registry);
  registerDocsResources(registry);
  registerPrivacyResources(registry);
  registerPolicyResources(registry);
}
