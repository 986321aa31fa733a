import type { Workspace } from '../workspace/workspace.js';
import type { RulesetCatalog } from './ruleset-catalog.js';
import { loadRulesets } from './ruleset-loader.js';

/** The rulesets a workspace maps against: `config.rulesets.rules_dir`, else the bundled ones. */
export function workspaceRulesets(workspace: Workspace): Promise<RulesetCatalog> {
  return loadRulesets(workspace.config.rulesets.rules_dir);
}
