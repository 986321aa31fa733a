/**
 * Options of cloudg as an OAuth 2.1 protected resource (MCP authorization, RFC 9728): which
 * issuer it trusts, what resource indicator tokens must be bound to, and how claims become a
 * principal.
 */

/** How an access token's claims become the principal the policy sees. */
export interface OAuthClaimMapping {
  /**
   * The claim naming the principal. Default `sub`. A token without it falls back to `client_id`,
   * then `azp` (client-credentials tokens of some providers name only the client).
   */
  id?: string;
  /**
   * Claims whose values become roles: `scope`/`scp` (space-separated), `groups`, `roles`, or a
   * dotted path into nested claims (`realm_access.roles`). Default `["scope"]`.
   */
  roles?: string[];
  /**
   * Claim values to role names. When given, only listed values grant roles (an identity
   * provider's other groups grant nothing); without it every value is a role as it is.
   */
  roleMap?: Record<string, string | string[]>;
}

/** RFC 7662 token introspection, for opaque (non-JWT) access tokens. */
export interface OAuthIntrospectionOptions {
  /** The introspection endpoint. Default the issuer metadata's `introspection_endpoint`. */
  url?: string;
  /** This server's own client credentials at the authorization server (HTTP Basic). */
  clientId: string;
  clientSecret: string;
}

export interface OAuthOptions {
  /** The authorization server's issuer identifier, exactly as its metadata states it. */
  issuer: string;
  /**
   * This server's resource indicator (RFC 8707): its public MCP endpoint URL. Tokens must name it
   * as their audience. Default the URL the server listens on (set it behind a proxy or when mounting).
   */
  resource?: string;
  /**
   * Further audiences to accept besides `resource` (Entra ID puts the application id URI,
   * `api://...`, in `aud`). Never another service's: that would be token passthrough.
   */
  audiences?: string[];
  /** The issuer's key set. Default the issuer metadata's `jwks_uri`. */
  jwksUri?: string;
  /** Opaque tokens are checked here; without it only JWT access tokens are accepted. */
  introspection?: OAuthIntrospectionOptions;
  /** Scopes every token must carry; missing ones answer 403 `insufficient_scope`. */
  requiredScopes?: string[];
  /** Published in the resource metadata's `scopes_supported`. Default `requiredScopes`. */
  scopesSupported?: string[];
  claims?: OAuthClaimMapping;
  /** Signature algorithms accepted. Default the asymmetric JWS algorithms (no `none`, no HMAC). */
  algorithms?: string[];
  /** Leeway for `exp` and `nbf`, in seconds. Default 5. */
  clockToleranceSec?: number;
  /**
   * After a key set fetch, how long an unknown `kid` waits before the set is fetched again
   * (rotation is picked up on the first token signed with a new key after this). Default 30 s.
   */
  jwksCooldownMs?: number;
  /** How long a fetched key set is trusted before it is fetched again anyway. Default 10 minutes. */
  jwksMaxAgeMs?: number;
  /** Time limit for each request to the authorization server. Default 5 s. */
  fetchTimeoutMs?: number;
  /** `resource_name` in the metadata. Default `cloudg`. */
  resourceName?: string;
  /** `resource_documentation` in the metadata. */
  resourceDocumentation?: string;
}

/** Asymmetric JWS algorithms: a shared-secret (HS*) token could be forged by anyone holding the secret. */
export const DEFAULT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export const OAUTH_DEFAULTS = {
  idClaim: 'sub',
  rolesClaims: ['scope'],
  clockToleranceSec: 5,
  jwksCooldownMs: 30_000,
  jwksMaxAgeMs: 600_000,
  fetchTimeoutMs: 5_000,
  resourceName: 'cloudg',
} as const;
