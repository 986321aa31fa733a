/** Prefix of every `_meta` key cloudg writes on definitions and results. */
export const META_PREFIX = 'cloudg/';

/** The `_meta` keys the layer and its built-in middleware write. */
export const MetaKey = {
  category: `${META_PREFIX}category`,
  sensitivity: `${META_PREFIX}sensitivity`,
  tags: `${META_PREFIX}tags`,
  transforms: `${META_PREFIX}transforms`,
  durationMs: `${META_PREFIX}duration_ms`,
  errorCode: `${META_PREFIX}error_code`,
  errorData: `${META_PREFIX}error_data`,
  cache: `${META_PREFIX}cache`,
  retries: `${META_PREFIX}retries`,
} as const;
