import { z } from 'zod';

/**
 * OrganizationTopology as `inventory-organization.json` stores it (`to_dict()`): roots, OUs,
 * accounts, policies and the Control Tower fields. Missing collections default to empty so a
 * partial discovery file still loads.
 */
export const OrgUnitSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  arn: z.string().nullish(),
  parent_id: z.string().nullish(),
  path: z.array(z.string()).default([]),
  is_root: z.boolean().default(false),
});
export type OrgUnit = z.infer<typeof OrgUnitSchema>;

export const OrgAccountSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  arn: z.string().nullish(),
  status: z.string().default('ACTIVE'),
  parent_id: z.string().nullish(),
  ou_path: z.array(z.string()).default([]),
  email: z.string().nullish(),
  joined_method: z.string().nullish(),
  joined: z.string().nullish(),
});
export type OrgAccount = z.infer<typeof OrgAccountSchema>;

export const OrgPolicySchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  arn: z.string().nullish(),
  type: z.string(),
  aws_managed: z.boolean().default(false),
  targets: z.array(z.string()).default([]),
});
export type OrgPolicy = z.infer<typeof OrgPolicySchema>;

export const OrganizationTopologySchema = z
  .looseObject({
    organization_id: z.string().nullish(),
    organization_arn: z.string().nullish(),
    management_account_id: z.string().nullish(),
    caller_account_id: z.string().nullish(),
    feature_set: z.string().nullish(),
    roots: z.array(OrgUnitSchema).default([]),
    ous: z.record(z.string(), OrgUnitSchema).default({}),
    accounts: z.record(z.string(), OrgAccountSchema).default({}),
    policies: z.array(OrgPolicySchema).default([]),
    delegated_administrators: z.record(z.string(), z.array(z.string())).default({}),
    enabled_services: z.array(z.string()).default([]),
    landing_zone: z.record(z.string(), z.unknown()).nullish(),
    governed_regions: z.array(z.string()).default([]),
    shared_accounts: z.record(z.string(), z.string()).default({}),
    enabled_controls: z.array(z.record(z.string(), z.unknown())).default([]),
    enabled_baselines: z.array(z.record(z.string(), z.unknown())).default([]),
    control_tower_region: z.string().nullish(),
    errors: z.array(z.string()).default([]),
    control_tower_enabled: z.boolean().optional(),
  })
  .transform((raw) => ({
    ...raw,
    organization_id: raw.organization_id ?? null,
    organization_arn: raw.organization_arn ?? null,
    management_account_id: raw.management_account_id ?? null,
    caller_account_id: raw.caller_account_id ?? null,
    feature_set: raw.feature_set ?? null,
    landing_zone: raw.landing_zone ?? null,
    control_tower_region: raw.control_tower_region ?? null,
    // The file's flag wins; older files without it are judged by the landing zone.
    control_tower_enabled:
      raw.control_tower_enabled ?? (raw.landing_zone !== null && raw.landing_zone !== undefined),
  }));
export type OrganizationTopology = z.infer<typeof OrganizationTopologySchema>;

/** `summary.organization`: the headline of an organization. */
export interface OrganizationSummary {
  id: string | null;
  accounts: number;
  ous: number;
  control_tower: boolean;
  governed_regions: string[];
}

export function summariseOrganization(org: OrganizationTopology): OrganizationSummary {
  return {
    id: org.organization_id,
    accounts: Object.keys(org.accounts).length,
    ous: Object.keys(org.ous).length,
    control_tower: org.control_tower_enabled,
    governed_regions: [...org.governed_regions],
  };
}
