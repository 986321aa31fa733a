/**
 * The errors of @cloudg/privacy. Every one is a `PrivacyError`: a `code`, a message that names
 * options and entity types but never the caller's values, and a structured `data` payload. This
 * is the shape of @cloudg/core's `McpLayerError`; the package keeps its own base so that it
 * depends on no other cloudg package.
 */

export type PrivacyErrorCode =
  | 'unknown_transform'
  | 'bad_transform_spec'
  | 'bad_transform_options'
  | 'bad_detector'
  | 'bad_strategy'
  | 'bad_alias_file'
  | 'vault_config'
  | 'vault_format'
  | 'vault_authentication'
  | 'vault_io';

/** Base class of every error the package raises: detectors, transforms, pipelines and the vault. */
export class PrivacyError extends Error {
  readonly code: PrivacyErrorCode | number;
  readonly data: Record<string, unknown>;

  constructor(
    code: PrivacyErrorCode | number,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = data;
  }
}

/** A transform spec names a type nobody registered. */
export class UnknownTransformError extends PrivacyError {
  constructor(type: string, known: readonly string[]) {
    super('unknown_transform', `Unknown transform type '${type}'`, { type, known: [...known] });
  }
}

/** A transform spec has the wrong shape (not a string or a mapping with a type). */
export class TransformSpecError extends PrivacyError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('bad_transform_spec', message, data);
  }
}

/** A transform was given an unknown option or an option of the wrong type. */
export class TransformOptionsError extends PrivacyError {
  constructor(transform: string, problem: string, data: Record<string, unknown> = {}) {
    super('bad_transform_options', `Bad options for transform '${transform}': ${problem}`, {
      transform,
      ...data,
    });
  }
}

/** A custom detector definition is invalid (bad regex, unknown option, missing name...). */
export class DetectorConfigError extends PrivacyError {
  constructor(detector: string | undefined, problem: string, data: Record<string, unknown> = {}) {
    super(
      'bad_detector',
      detector === undefined
        ? `Invalid custom detector: ${problem}`
        : `Invalid detector '${detector}': ${problem}`,
      { detector: detector ?? null, ...data },
    );
  }
}

/** A redaction strategy could not be parsed. */
export class StrategyError extends PrivacyError {
  constructor(problem: string, data: Record<string, unknown> = {}) {
    super('bad_strategy', `Invalid redaction strategy: ${problem}`, data);
  }
}

/**
 * The input guard found secrets in the arguments. Code -32602 (invalid params), like the MCP
 * layer's other argument errors; `data.entities` lists the entity types found, never the values.
 */
export class SecretArgumentError extends PrivacyError {
  declare readonly code: -32602;
  declare readonly data: { entities: string[] };

  constructor(entities: readonly string[]) {
    super(
      -32602,
      `Arguments appear to contain secrets (${entities.join(', ')}); refusing to process them. ` +
        'Pass resource references, never credentials.',
      { entities: [...entities] },
    );
  }
}
