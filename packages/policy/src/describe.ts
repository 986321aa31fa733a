/** `describe()`: a policy's settings and origin as plain data, without the vault key. */
import type { Capability } from '@cloudg/core';
import type { PolicyTransforms } from './pipeline/assemble.js';
import type { NormalizedSpec } from './pipeline/specs.js';
import type { PolicyConfig } from './schema/config.js';

export interface PolicyDescription {
  name: string;
  description: string;
  loaded_from: string;
  extends: string[];
  hide_denied: boolean;
  honor_hints: boolean;
  audit: boolean;
  audit_size: number;
  max_sensitivity: string | null;
  deny_capabilities: string[];
  allow_capabilities: string[];
  effective_denied_capabilities: string[];
  allow_tools: string[] | null;
  deny_tools: string[];
  allow_resources: string[] | null;
  deny_resources: string[];
  allow_prompts: string[] | null;
  deny_prompts: string[];
  allow_categories: string[] | null;
  deny_categories: string[];
  roles: string[];
  rules: string[];
  rate_limits: PolicyConfig['rate_limits'];
  transforms: NormalizedSpec[];
  input_transforms: NormalizedSpec[];
  transform_options: Record<string, Record<string, unknown>>;
  disabled_detectors: string[];
  detectors: number;
  vault: Omit<PolicyConfig['vault'], 'key'> & { key_set: boolean };
}

export interface DescribeContext {
  loadedFrom: string;
  extendsChain: readonly string[];
  effectiveDenied: ReadonlySet<Capability>;
  /** Names of the `rules` (roles excluded), in order. */
  ruleNames: string[];
  transforms: PolicyTransforms;
}

export function describePolicy(c: PolicyConfig, ctx: DescribeContext): PolicyDescription {
  const { key, ...vault } = c.vault;
  return {
    name: c.name,
    description: c.description,
    loaded_from: ctx.loadedFrom,
    extends: [...ctx.extendsChain],
    hide_denied: c.hide_denied,
    honor_hints: c.honor_hints,
    audit: c.audit,
    audit_size: c.audit_size,
    max_sensitivity: c.max_sensitivity,
    deny_capabilities: [...c.deny_capabilities],
    allow_capabilities: [...c.allow_capabilities],
    effective_denied_capabilities: [...ctx.effectiveDenied].sort(),
    allow_tools: c.allow_tools,
    deny_tools: c.deny_tools,
    allow_resources: c.allow_resources,
    deny_resources: c.deny_resources,
    allow_prompts: c.allow_prompts,
    deny_prompts: c.deny_prompts,
    allow_categories: c.allow_categories,
    deny_categories: c.deny_categories,
    roles: Object.keys(c.roles),
    rules: ctx.ruleNames,
    rate_limits: c.rate_limits,
    transforms: [...ctx.transforms.transforms],
    input_transforms: [...ctx.transforms.inputTransforms],
    transform_options: c.transform_options,
    disabled_detectors: c.disabled_detectors,
    detectors: c.detectors.length,
    vault: { ...vault, key_set: key !== null },
  };
}
