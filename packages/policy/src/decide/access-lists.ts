/** The allow and deny lists shared by policies and rules (section 6.2), compiled once. */
import type { Capability, Sensitivity } from '@cloudg/core';
import type { RuleConfig } from '../schema/config.js';
import { GlobList } from './glob.js';
import type { Family } from './primitive.js';

type AccessFields = Pick<
  RuleConfig,
  | 'allow_tools'
  | 'deny_tools'
  | 'allow_resources'
  | 'deny_resources'
  | 'allow_prompts'
  | 'deny_prompts'
  | 'allow_categories'
  | 'deny_categories'
  | 'allow_capabilities'
  | 'deny_capabilities'
  | 'max_sensitivity'
>;

export interface AccessLists {
  /** `undefined` means no list was given (at policy level: everything allowed; in a rule: no grant). */
  allow: Record<Family, GlobList | undefined>;
  deny: Record<Family, GlobList>;
  allowCategories: GlobList | undefined;
  denyCategories: GlobList;
  allowCapabilities: ReadonlySet<Capability>;
  denyCapabilities: ReadonlySet<Capability>;
  maxSensitivity: Sensitivity | null;
}

const optional = (patterns: readonly string[] | null) =>
  patterns === null ? undefined : new GlobList(patterns);

export function compileAccessLists(fields: AccessFields): AccessLists {
  return {
    allow: {
      tool: optional(fields.allow_tools),
      resource: optional(fields.allow_resources),
      prompt: optional(fields.allow_prompts),
    },
    deny: {
      tool: new GlobList(fields.deny_tools),
      resource: new GlobList(fields.deny_resources),
      prompt: new GlobList(fields.deny_prompts),
    },
    allowCategories: optional(fields.allow_categories),
    denyCategories: new GlobList(fields.deny_categories),
    allowCapabilities: new Set(fields.allow_capabilities),
    denyCapabilities: new Set(fields.deny_capabilities),
    maxSensitivity: fields.max_sensitivity,
  };
}
