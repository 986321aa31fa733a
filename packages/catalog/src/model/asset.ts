import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PROVIDERS } from './vocabulary.js';

/**
 * CloudAsset: one node of the map. The in-memory shape keeps the file's snake_case keys so a
 * loaded asset can be written back, hashed or shown without a translation layer. Unknown
 * top-level keys are kept (collectors may attach their own), `display_id` is dropped because
 * it is derived.
 */
const tagValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .transform((v) => (v === null ? '' : String(v)));

export const CloudAssetSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    arn: z.string().nullish(),
    name: z.string().nullish(),
    asset_type: z.string().min(1),
    provider: z
      .string()
      .transform((p) => p.toUpperCase())
      .pipe(z.enum(PROVIDERS)),
    region: z.string().nullish(),
    account_id: z.union([z.string(), z.number()]).nullish(),
    tags: z.record(z.string(), tagValue).nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    collected_at: z.string().nullish(),
    is_internet_exposed: z.boolean().nullish(),
  })
  .transform((raw): CloudAsset => {
    const { display_id: _derived, ...rest } = raw as typeof raw & { display_id?: unknown };
    const id = rest.id ?? randomUUID();
    const arn = rest.arn ?? null;
    return {
      ...rest,
      id,
      arn,
      name: rest.name || arn || id,
      asset_type: rest.asset_type,
      provider: rest.provider,
      region: rest.region || 'global',
      account_id: rest.account_id === null || rest.account_id === undefined ? null : String(rest.account_id),
      tags: rest.tags ?? {},
      metadata: rest.metadata ?? {},
      collected_at: rest.collected_at ?? null,
      is_internet_exposed: rest.is_internet_exposed ?? false,
    };
  });

export interface CloudAsset {
  id: string;
  /** Stable identifier (ARN, Azure resource id, GCP full name, synthetic id); null when unknown. */
  arn: string | null;
  name: string;
  asset_type: string;
  provider: (typeof PROVIDERS)[number];
  region: string;
  account_id: string | null;
  tags: Record<string, string>;
  metadata: Record<string, unknown>;
  collected_at: string | null;
  is_internet_exposed: boolean;
  /** Extra collector fields survive a load and a save. */
  [extra: string]: unknown;
}
