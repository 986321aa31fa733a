/**
 * The cloudg config file (`config.yaml`, the CLI's `-c/--config`): which clouds the server is
 * for, how it authenticates to them, where reports go, and how often live collection may run.
 * Every object refuses unknown keys, so a misspelt key fails at start-up with its path instead
 * of being silently ignored.
 */
import * as z from 'zod';
import { SecretValue } from './secret.js';

/** The providers a config may name, in the lower case the live tools' `providers` argument uses. */
export const CONFIG_PROVIDERS = ['aws', 'azure', 'gcp'] as const;
export type ConfigProvider = (typeof CONFIG_PROVIDERS)[number];

/**
 * A YAML section left empty (`aws:` with nothing under it) is null; treat it as an empty
 * mapping so the section's defaults apply.
 */
function section<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value): z.output<T> => value ?? schema.parse({}));
}

/**
 * A message for a value of the wrong type; other problems (too small, bad format) keep their own
 * message. A message set on the schema itself would replace those too.
 */
function wrongType(message: string) {
  return (issue: { code?: string }) => (issue.code === 'invalid_type' ? message : undefined);
}

/** Sections are YAML mappings. */
const MAPPING = { error: wrongType('expected a mapping') };
const LIST = { error: wrongType('expected a list') };

const nonEmpty = z
  .string({ error: wrongType('expected a string') })
  .trim()
  .min(1, { error: 'must not be empty' });

/** A file or directory; relative paths are resolved against the config file's directory. */
const pathString = nonEmpty;

/** A secret: text from YAML, or an already parsed config's `SecretValue` (re-parsing is allowed). */
const secret = z.preprocess(
  (value) => (value instanceof SecretValue ? value.reveal() : value),
  z
    .string({ error: wrongType('expected a string') })
    .min(1, { error: 'must not be empty' })
    .transform((value) => new SecretValue(value)),
);

const uniqueList = <T extends z.ZodType<string>>(item: T) =>
  z.array(item, LIST).transform((items) => [...new Set(items)]);

/**
 * An id made of digits (AWS account, GCP organization). YAML reads an unquoted one as a number,
 * dropping leading zeros, so numbers are accepted and padded back to `width` digits.
 */
function digitId(width: number | null, error: string) {
  const pattern = width === null ? /^\d+$/ : new RegExp(`^\\d{${width}}$`);
  return z.union([z.string(), z.number()], { error }).transform((value, ctx) => {
    let text: string;
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) {
        ctx.addIssue({ code: 'custom', message: error });
        return z.NEVER;
      }
      text = width === null ? String(value) : String(value).padStart(width, '0');
    } else text = value.trim();
    if (!pattern.test(text)) {
      ctx.addIssue({ code: 'custom', message: error });
      return z.NEVER;
    }
    return text;
  });
}

const awsAccount = digitId(12, 'expected a 12-digit AWS account id');
const gcpOrganization = digitId(null, 'expected a numeric GCP organization id');
const region = z
  .string({ error: wrongType('expected a region name') })
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, { error: 'expected a region name such as eu-west-1' });
const guid = z.guid({ error: 'expected a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)' });
const roleArn = z
  .string({ error: wrongType('expected an IAM role ARN') })
  .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/, {
    error: 'expected an IAM role ARN (arn:aws:iam::<account>:role/<name>)',
  });
const gcpProject = z
  .string({ error: wrongType('expected a GCP project id') })
  .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, {
    error: 'expected a GCP project id (6-30 lower-case letters, digits and hyphens)',
  });

export const AwsConfig = z
  .strictObject(
    {
      /** A named profile from the AWS shared config and credentials files. */
      profile: nonEmpty.optional(),
      /** Accounts to collect; each is its own live-guard scope. */
      accounts: uniqueList(awsAccount).default([]),
      regions: uniqueList(region).default([]),
      /** A role to assume (with `web_identity_token_file` for web identity federation). */
      role_arn: roleArn.optional(),
      web_identity_token_file: pathString.optional(),
      access_key_id: z
        .string({ error: wrongType('expected an access key id') })
        .regex(/^[A-Z0-9]{16,128}$/, { error: 'expected an access key id (upper-case letters and digits)' })
        .optional(),
      secret_access_key: secret.optional(),
      session_token: secret.optional(),
    },
    MAPPING,
  )
  .superRefine((aws, ctx) => {
    // Half a key pair would fail at the first API call; say so at start-up instead.
    if (aws.access_key_id !== undefined && aws.secret_access_key === undefined)
      ctx.addIssue({ code: 'custom', path: ['secret_access_key'], message: 'required with access_key_id' });
    if (aws.secret_access_key !== undefined && aws.access_key_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['access_key_id'], message: 'required with secret_access_key' });
    if (aws.session_token !== undefined && aws.access_key_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['access_key_id'], message: 'required with session_token' });
    if (aws.web_identity_token_file !== undefined && aws.role_arn === undefined)
      ctx.addIssue({ code: 'custom', path: ['role_arn'], message: 'required with web_identity_token_file' });
  });
export type AwsConfig = z.output<typeof AwsConfig>;

export const AzureConfig = z
  .strictObject(
    {
      subscriptions: uniqueList(guid).default([]),
      /** The directory (tenant) id or its domain name. */
      tenant_id: nonEmpty.optional(),
      /** A service principal's application id, or a user-assigned managed identity's client id. */
      client_id: guid.optional(),
      client_secret: secret.optional(),
    },
    MAPPING,
  )
  .superRefine((azure, ctx) => {
    if (azure.client_secret === undefined) return;
    if (azure.client_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'required with client_secret' });
    if (azure.tenant_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['tenant_id'], message: 'required with client_secret' });
  });
export type AzureConfig = z.output<typeof AzureConfig>;

export const GcpConfig = z.strictObject(
  {
    projects: uniqueList(gcpProject).default([]),
    organization_id: gcpOrganization.optional(),
    /** A service-account key or external-account file; without it, application default credentials. */
    credentials_file: pathString.optional(),
    regions: uniqueList(region).default([]),
  },
  MAPPING,
);
export type GcpConfig = z.output<typeof GcpConfig>;

/** Seconds: `min` 0 allows zero (no cooldown), otherwise the value must be more than 0. */
function seconds(min: 0 | 'positive') {
  const number = z.number({ error: wrongType('expected a number of seconds') });
  return min === 0
    ? number.min(0, { error: 'must be 0 or more' })
    : number.positive({ error: 'must be more than 0' });
}

function count(min: 0 | 1) {
  return z
    .int({ error: wrongType('expected a whole number') })
    .min(min, { error: min === 0 ? 'must be 0 or more' : 'must be at least 1' });
}

export const ProviderRateLimitConfig = z.strictObject(
  {
    /** Overrides `ratelimit.live_cooldown_seconds` for this provider's scopes. */
    live_cooldown_seconds: seconds(0).optional(),
  },
  MAPPING,
);
export type ProviderRateLimitConfig = z.output<typeof ProviderRateLimitConfig>;

/** The live operation guard's settings (MCP.md 15.3). */
export const RateLimitConfig = z.strictObject(
  {
    live_cooldown_seconds: seconds(0).default(120),
    live_max_concurrent: count(1).default(1),
    live_max_concurrent_total: count(1).default(2),
    /** Per caller per window; 0 means unlimited. */
    live_caller_max_operations: count(0).default(0),
    live_caller_window_seconds: seconds('positive').default(3600),
    live_operation_timeout_seconds: seconds('positive').default(3600),
    aws: section(ProviderRateLimitConfig),
    azure: section(ProviderRateLimitConfig),
    gcp: section(ProviderRateLimitConfig),
  },
  MAPPING,
);
export type RateLimitConfig = z.output<typeof RateLimitConfig>;

export const ReportConfig = z.strictObject(
  {
    /** Where export tools write; null means `<working directory>/reports`. */
    output_dir: pathString.nullable().default(null),
  },
  MAPPING,
);
export type ReportConfig = z.output<typeof ReportConfig>;

export const RulesetsConfig = z.strictObject(
  {
    /** Directory of compliance ruleset YAML files; null means the bundled rules. */
    rules_dir: pathString.nullable().default(null),
  },
  MAPPING,
);
export type RulesetsConfig = z.output<typeof RulesetsConfig>;

export const StateConfig = z.strictObject(
  {
    /**
     * Directory for state that must survive a restart (the findings' suppressions, in
     * `suppressions.json`); null keeps that state in memory only.
     */
    dir: pathString.nullable().default(null),
  },
  MAPPING,
);
export type StateConfig = z.output<typeof StateConfig>;

/** The whole cloudg config document, with every default filled in. */
export const CloudgConfig = z.strictObject(
  {
    /** Providers the server is configured for (`workspace_status.providers_configured`). */
    providers: z
      .array(z.enum(CONFIG_PROVIDERS, { error: `expected one of ${CONFIG_PROVIDERS.join(', ')}` }), LIST)
      .min(1, { error: 'name at least one provider' })
      .transform((items) => [...new Set(items)])
      .default(['aws']),
    report: section(ReportConfig),
    aws: section(AwsConfig),
    azure: section(AzureConfig),
    gcp: section(GcpConfig),
    ratelimit: section(RateLimitConfig),
    rulesets: section(RulesetsConfig),
    state: section(StateConfig),
  },
  MAPPING,
);
export type CloudgConfig = z.output<typeof CloudgConfig>;
/** What a config file may contain before defaults are filled. */
export type CloudgConfigInput = z.input<typeof CloudgConfig>;
