import { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../conventions/paging.js';

/**
 * Argument declarations shared by the catalog tools, so every tool describes `dataset`,
 * `limit`, `cursor` and asset references with the same words and bounds.
 */

export const datasetArg = () =>
  z.string().default('').describe('Dataset name (see list_datasets). Empty = the active dataset.');

export const limitArg = (
  fallback = DEFAULT_LIMIT,
  max = MAX_LIMIT,
  description = 'Maximum items to return.',
) => z.number().int().min(1).max(max).default(fallback).describe(description);

export const cursorArg = () =>
  z.string().default('').describe("Opaque cursor from a previous call's next_cursor; empty = first page.");

export const assetRefArg = () =>
  z
    .string()
    .min(1)
    .describe(
      "Asset reference: internal id, ARN / cloud resource id, unique name, or unique ARN tail (e.g. 'function:api' or 'i-0abc').",
    );

/** An output schema whose properties are all optional and whose objects allow extra keys. */
export const looseResult = (shape: z.ZodRawShape) => z.looseObject(shape).partial();
