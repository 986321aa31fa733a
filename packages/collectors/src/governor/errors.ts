/**
 * The governor's own refusals. Each carries a botocore-like `name` so error-code readers and the
 * coverage text treat them like provider errors.
 */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  constructor(
    readonly scope: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`circuit open for ${scope} after repeated throttling; retry in ${Math.ceil(retryAfterSeconds)}s`);
  }
}

export class RetriesExhaustedError extends Error {
  override readonly name = 'RetriesExhaustedError';
  constructor(
    readonly scope: string,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(
      `${scope}: gave up after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}
