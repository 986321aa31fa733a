import { z } from 'zod';
import { SEVERITIES } from '../model/severity.js';

/**
 * The two kinds of file in a rules directory, as zod schemas that reject unknown keys (a typo such
 * as `pattern:` would otherwise silently map nothing). The format is the one cloudg's rulesets
 * have always used, so a directory of custom rules written for it loads unchanged.
 */

export const RULESET_PROVIDERS = ['aws', 'azure', 'gcp'] as const;

/** A regular expression the pattern tier can run; Python-only syntax such as `(?P<x>)` fails here. */
const pattern = z
  .string()
  .min(1)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source, 'i');
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a valid regular expression' });
    }
  });

const severity = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(SEVERITIES, { error: `expected one of ${SEVERITIES.join(', ')}` }));

export const RulesetControlSchema = z.strictObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  title: z.string().nullish(),
  severity: severity.nullish(),
  /** Scanner check ids (Prowler check names, Checkov `CKV_*` ids) that test this control. */
  checks: z.array(z.union([z.string().min(1), z.number()]).transform(String)).nullish(),
  /** Regular expressions run against a finding's title and description (case-insensitive). */
  patterns: z.array(pattern).nullish(),
});

export const RulesetFileSchema = z.strictObject({
  /** When missing, the file name (without `.yaml`) names the framework. */
  framework: z.string().min(1).nullish(),
  version: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined || v === '' ? null : String(v))),
  provider: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(RULESET_PROVIDERS, { error: `expected one of ${RULESET_PROVIDERS.join(', ')}` }))
    .nullish(),
  source: z.string().nullish(),
  controls: z.array(RulesetControlSchema).nullish(),
});
export type RulesetFile = z.output<typeof RulesetFileSchema>;

export const EquivalenceFileSchema = z.strictObject({
  equivalences: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        title: z.string().nullish(),
        /** Scanner (lower-case `source_tool`) -> its check ids that mean this canonical check. */
        checks: z.record(
          z.string().min(1),
          z.array(z.union([z.string().min(1), z.number()]).transform(String)),
        ),
      }),
    )
    .nullish(),
});
export type EquivalenceFile = z.output<typeof EquivalenceFileSchema>;

/** The file of a rules directory that holds check equivalences rather than a ruleset. */
export const EQUIVALENCE_FILE = 'check_equivalence.yaml';
