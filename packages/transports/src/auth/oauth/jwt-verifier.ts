/**
 * JWT access tokens (RFC 9068) checked against the issuer's key set with `jose`: signature,
 * issuer, audience, expiry and not-before. The remote key set is cached and fetched again when a
 * token names a key it does not hold, which is how a rotation at the issuer is picked up.
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { BearerTokenError } from './challenge.js';

export interface JwtVerifierOptions {
  issuer: string;
  audiences: readonly string[];
  algorithms: readonly string[];
  clockToleranceSec: number;
  cooldownMs: number;
  maxAgeMs: number;
  timeoutMs: number;
}

/** Whether a token has the shape of a JWS (three base64url parts): opaque tokens go to introspection. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

export class JwtVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    jwksUri: string,
    private readonly options: JwtVerifierOptions,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: options.cooldownMs,
      cacheMaxAge: options.maxAgeMs,
      timeoutDuration: options.timeoutMs,
    });
  }

  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        issuer: this.options.issuer,
        audience: [...this.options.audiences],
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockToleranceSec,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (error) {
      throw new BearerTokenError('invalid_token', describe(error));
    }
  }
}

/** What the client is told: which check failed, never the token or the key material. */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return 'The token was issued by another issuer';
      case 'aud':
        return 'The token was issued for another resource';
      case 'nbf':
        return 'The token is not valid yet';
      case 'exp':
        return 'The token has no expiry';
      default:
        return `The token's ${error.claim} claim is not valid`;
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'The token is signed with a key the issuer does not publish';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is not valid';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The token is signed with an algorithm not accepted here';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return "The issuer's keys could not be fetched";
  return 'The token is not valid';
}
