/**
 * Bearer challenges (RFC 6750 section 3, RFC 9728 section 5.1): every 401 and 403 names the
 * resource metadata, so a client that has never seen this server can discover where to sign in.
 */

/** Why a request was refused: no token, a token that is not valid here, or one short of scopes. */
export type BearerError = 'missing' | 'invalid_token' | 'insufficient_scope';

export interface BearerRefusal {
  error: BearerError;
  /** Why, for `error_description`. Never contains the token. */
  description?: string;
  /** The scopes the request needs (403) or that a client should ask for (401). */
  scopes?: readonly string[];
}

/** A token that was presented and refused. */
export class BearerTokenError extends Error {
  constructor(
    readonly error: 'invalid_token' | 'insufficient_scope',
    readonly description: string,
    readonly scopes: readonly string[] = [],
  ) {
    super(description);
    this.name = 'BearerTokenError';
  }

  get refusal(): BearerRefusal {
    return { error: this.error, description: this.description, scopes: this.scopes };
  }
}

/** A quoted-string parameter: quotes and backslashes escaped, control characters dropped. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return `"${value.replace(/[\u0000-\u001f\u007f]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The status and `WWW-Authenticate` value for a refusal. */
export function bearerChallenge(
  refusal: BearerRefusal,
  resourceMetadataUrl: string,
): { status: 401 | 403; header: string } {
  const params: string[] = [];
  if (refusal.error !== 'missing') params.push(`error=${quoted(refusal.error)}`);
  if (refusal.description && refusal.error !== 'missing')
    params.push(`error_description=${quoted(refusal.description)}`);
  if (refusal.scopes && refusal.scopes.length > 0) params.push(`scope=${quoted(refusal.scopes.join(' '))}`);
  params.push(`resource_metadata=${quoted(resourceMetadataUrl)}`);
  return {
    status: refusal.error === 'insufficient_scope' ? 403 : 401,
    header: `Bearer ${params.join(', ')}`,
  };
}

/**
 * The issuer could not be reached or described itself unusably: the token cannot be checked, so
 * it is refused (401) rather than the request failing with 500; the reason goes to the log.
 */
export class IssuerUnavailableError extends BearerTokenError {
  constructor(readonly reason: unknown) {
    super('invalid_token', 'The token could not be checked');
  }
}
