import { McpLayerError } from '@cloudg/core';

/** A token spec or auth option that cannot work; raised before a server starts. */
export class AuthConfigError extends McpLayerError {
  override readonly code = 'invalid_auth_config';
  declare readonly data: Record<string, unknown>;

  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { data });
  }
}
