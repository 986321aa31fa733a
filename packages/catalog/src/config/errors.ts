import { type ConfigProblem, McpLayerError } from '@cloudg/core';

/**
 * Errors raised while reading the cloudg config file. Messages name the dotted path of each
 * problem and never repeat a value from the file (it may hold credentials); the file's path
 * travels in `data.source`.
 */

export type CloudgConfigErrorCode =
  | 'config_not_found'
  | 'config_unreadable'
  | 'config_parse_error'
  | 'invalid_config';

/** One problem in the config: the dotted path to it (`''` for the whole file) and what is wrong. */
export type CloudgConfigProblem = ConfigProblem;

export interface CloudgConfigErrorData {
  problems: CloudgConfigProblem[];
  /** The file that was read, when the config came from a file. */
  source?: string;
}

export class CloudgConfigError extends McpLayerError {
  override readonly code: CloudgConfigErrorCode;
  declare readonly data: CloudgConfigErrorData;

  constructor(
    code: CloudgConfigErrorCode,
    message: string,
    data: CloudgConfigErrorData,
    options?: { cause?: unknown },
  ) {
    super(message, { data, cause: options?.cause });
    this.code = code;
  }

  /** The document does not match the schema; every problem is listed with its path. */
  static invalid(problems: CloudgConfigProblem[], source?: string): CloudgConfigError {
    const listed = problems.map((p) => `${p.path || '(root)'}: ${p.message}`).join('; ');
    return new CloudgConfigError(
      'invalid_config',
      `Invalid cloudg config: ${listed}`,
      withSource({ problems }, source),
    );
  }

  /** The file could not be turned into a document (missing, unreadable, not YAML). */
  static unloadable(
    code: Exclude<CloudgConfigErrorCode, 'invalid_config'>,
    problem: string,
    source: string,
    cause?: unknown,
  ): CloudgConfigError {
    return new CloudgConfigError(
      code,
      `Cannot load the cloudg config: ${problem}`,
      withSource({ problems: [{ path: '', message: problem }] }, source),
      { cause },
    );
  }
}

function withSource(data: CloudgConfigErrorData, source: string | undefined): CloudgConfigErrorData {
  return source === undefined ? data : { ...data, source };
}
