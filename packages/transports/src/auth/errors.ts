/** A token spec or auth option that cannot work; raised before a server starts. */
export class AuthConfigError extends Error {
  readonly code = 'invalid_auth_config';
  readonly data: Record<string, unknown> | undefined;

  constructor(message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'AuthConfigError';
    this.data = data;
  }
}
