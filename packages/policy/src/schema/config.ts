/**
 * The policy schema (section 6 of the privacy reference). Every object refuses unknown keys, so
 * a typo in a policy file fails at load time with the path of the key instead of being ignored.
 */
import { CAPABILITIES, SENSITIVITIES } from '@cloudg/core';
import * as z from 'zod';

const globs = z.array(z.string());
const capability = z.enum(CAPABILITIES);
const sensitivity = z.enum(SENSITIVITIES);

/**
 * A transform is a name or a mapping with `type` (or `transform`, `name`), an optional `id` and
 * options, nested under `options` or inline. Options belong to the transform, so this object is
 * open; @cloudg/privacy checks them when the transform is built.
 */
export const TransformSpecSchema = z.union([
  z.string().min(1),
  z.looseObject({
    type: z.string().min(1).optional(),
    transform: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    id: z.string().min(1).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
]);
export type TransformSpecInput = z.input<typeof TransformSpecSchema>;

/** Option overrides keyed by transform type or id. */
export const TransformOptionsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

export const RATE_PERIODS = ['second', 'minute', 'hour', 'day'] as const;
export type RatePeriod = (typeof RATE_PERIODS)[number];
export const RATE_SCOPES = ['principal', 'tool', 'principal_tool', 'global'] as const;
export type RateScope = (typeof RATE_SCOPES)[number];
export const PRIMITIVE_KINDS = ['tool', 'resource', 'resource_template', 'prompt'] as const;
export type PrimitiveKind = (typeof PRIMITIVE_KINDS)[number];
export const CALL_KINDS = [...PRIMITIVE_KINDS, 'completion'] as const;
export type PolicyCallKind = (typeof CALL_KINDS)[number];

export const RateLimitSchema = z.strictObject({
  rate: z.number().positive(),
  per: z.enum(RATE_PERIODS).default('minute'),
  burst: z.int().min(1).nullable().default(null),
  scope: z.enum(RATE_SCOPES).default('principal_tool'),
  tools: globs.default(['*']),
  kinds: z.array(z.enum(CALL_KINDS)).default([]),
});
export type RateLimitConfig = z.output<typeof RateLimitSchema>;

const accessRules = {
  allow_tools: globs.nullable().default(null),
  deny_tools: globs.default([]),
  allow_resources: globs.nullable().default(null),
  deny_resources: globs.default([]),
  allow_prompts: globs.nullable().default(null),
  deny_prompts: globs.default([]),
  allow_categories: globs.nullable().default(null),
  deny_categories: globs.default([]),
  allow_capabilities: z.array(capability).default([]),
  deny_capabilities: z.array(capability).default([]),
  max_sensitivity: sensitivity.nullable().default(null),
};

export const RuleMatchSchema = z.strictObject({
  roles: z.array(z.string()).default([]),
  principals: globs.default([]),
  names: globs.default([]),
  categories: globs.default([]),
  tags: z.array(z.string()).default([]),
  kinds: z.array(z.enum(PRIMITIVE_KINDS)).default([]),
  sensitivity: z.array(sensitivity).default([]),
  capabilities: z.array(capability).default([]),
});
export type RuleMatch = z.output<typeof RuleMatchSchema>;

export const RuleSchema = z.strictObject({
  ...accessRules,
  name: z.string().default(''),
  description: z.string().default(''),
  match: RuleMatchSchema.default(() => RuleMatchSchema.parse({})),
  transforms: z.array(TransformSpecSchema).default([]),
  transforms_mode: z.enum(['append', 'prepend', 'replace']).default('append'),
  transform_options: TransformOptionsSchema.default({}),
  input_transforms: z.array(TransformSpecSchema).default([]),
  rate_limits: z.array(RateLimitSchema).default([]),
  honor_hints: z.boolean().nullable().default(null),
});
export type RuleConfig = z.output<typeof RuleSchema>;

export const VaultSchema = z.strictObject({
  key: z.string().nullable().default(null),
  key_env: z.string().default('CLOUDG_MCP_VAULT_KEY'),
  scope: z.enum(['global', 'principal']).default('global'),
  ttl_seconds: z.number().positive().nullable().default(null),
  path: z.string().nullable().default(null),
  autosave: z.boolean().default(false),
  encrypt: z.boolean().default(true),
});
export type VaultConfig = z.output<typeof VaultSchema>;

/** Tool calls that need the person's confirmation (asked through elicitation before they run). */
export const ConfirmSchema = z.strictObject({
  tools: globs.min(1),
  /** Only when each of these arguments is true (e.g. `force`); none means every call. */
  when_true: z.array(z.string()).default([]),
  /** The question shown; a default names the tool and the arguments. */
  message: z.string().min(1).nullable().default(null),
});
export type ConfirmConfig = z.output<typeof ConfirmSchema>;

export const PolicySchema = z.strictObject({
  ...accessRules,
  name: z.string().default('custom'),
  description: z.string().default(''),
  extends: z.string().nullable().default(null),
  hide_denied: z.boolean().default(true),
  honor_hints: z.boolean().default(true),
  audit: z.boolean().default(false),
  audit_size: z.int().min(0).default(1000),
  transforms: z.array(TransformSpecSchema).default([]),
  input_transforms: z.array(TransformSpecSchema).default([]),
  transform_options: TransformOptionsSchema.default({}),
  detectors: z.array(z.record(z.string(), z.unknown())).default([]),
  disabled_detectors: z.array(z.string()).default([]),
  roles: z.record(z.string(), RuleSchema).default({}),
  rules: z.array(RuleSchema).default([]),
  rate_limits: z.array(RateLimitSchema).default([]),
  vault: VaultSchema.default(() => VaultSchema.parse({})),
  confirm: z.array(ConfirmSchema).default([]),
});

/** A validated policy with every default filled in. */
export type PolicyConfig = z.output<typeof PolicySchema>;
/** A policy document as written: every key optional. */
export type PolicyDocument = z.input<typeof PolicySchema>;
