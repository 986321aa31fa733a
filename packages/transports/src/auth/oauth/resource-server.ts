/**
 * cloudg as an OAuth 2.1 protected resource: it publishes its metadata, checks each request's
 * access token (a JWT locally, an opaque token by introspection) and maps the token's claims to
 * the request's principal. Every request carries its own token, and nothing is passed on.
 */
import type { Principal } from '@cloudg/core';
import { AuthConfigError } from '../errors.js';
import { bearerToken } from '../token-auth.js';
import {
  type BearerRefusal,
  BearerTokenError,
  bearerChallenge,
  IssuerUnavailableError,
} from './challenge.js';
import { type Claims, principalFromClaims, tokenScopes } from './claims.js';
import { discoverIssuer, type IssuerMetadata } from './discovery.js';
import { Introspector } from './introspection.js';
import { JwtVerifier, looksLikeJwt } from './jwt-verifier.js';
import { metadataPaths, metadataUrlFor, type ProtectedResourceMetadata } from './metadata.js';
import { DEFAULT_ALGORITHMS, OAUTH_DEFAULTS, type OAuthOptions } from './options.js';

export type OAuthOutcome = { principal: Principal } | { refusal: BearerRefusal };

function checkUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthConfigError(`${what} must be an absolute URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AuthConfigError(`${what} must be an http(s) URL: ${value}`);
  if (url.hash) throw new AuthConfigError(`${what} must not have a fragment: ${value}`);
  return value;
}

export class OAuthResourceServer {
  readonly issuer: string;
  private resourceUrl: string | undefined;
  private metadataPathSet: Set<string> | undefined;
  private readonly requiredScopes: readonly string[];
  private discovered: Promise<IssuerMetadata> | undefined;
  private jwt: Promise<JwtVerifier> | undefined;
  private introspector: Promise<Introspector | undefined> | undefined;
  /** Told why the issuer could not be used (unreachable, bad metadata); the caller only sees 401. */
  onIssuerError: ((reason: unknown) => void) | undefined;

  constructor(
    private readonly options: OAuthOptions,
    private readonly endpointPath = '/mcp',
  ) {
    this.issuer = checkUrl(options.issuer, 'The OAuth issuer');
    if (options.resource !== undefined) this.setResource(checkUrl(options.resource, 'The OAuth resource'));
    if (options.jwksUri !== undefined) checkUrl(options.jwksUri, 'The JWKS URI');
    if (options.introspection) {
      if (!options.introspection.clientId || !options.introspection.clientSecret)
        throw new AuthConfigError('Token introspection needs a client id and a client secret');
      if (options.introspection.url !== undefined)
        checkUrl(options.introspection.url, 'The introspection URL');
    }
    this.requiredScopes = [...new Set(options.requiredScopes ?? [])];
  }

  /** Set the resource indicator once the server knows its URL (when not configured). */
  setDefaultResource(url: string): void {
    if (this.resourceUrl === undefined) this.setResource(url);
  }

  private setResource(url: string): void {
    this.resourceUrl = url;
    this.metadataPathSet = metadataPaths(url, this.endpointPath);
  }

  get resource(): string {
    if (this.resourceUrl === undefined)
      throw new AuthConfigError('The OAuth resource (this server’s public MCP URL) must be configured');
    return this.resourceUrl;
  }

  get resourceMetadataUrl(): string {
    return metadataUrlFor(this.resource);
  }

  /** Whether the resource indicator is known (configured, or set once the server listens). */
  get hasResource(): boolean {
    return this.resourceUrl !== undefined;
  }

  /** The well-known paths the metadata is served at (none until the resource is known). */
  get metadataPathList(): string[] {
    return [...(this.metadataPathSet ?? [])];
  }

  /** Whether `pathname` is one of the metadata's well-known paths. */
  servesMetadataAt(pathname: string): boolean {
    return this.metadataPathSet?.has(pathname) ?? false;
  }

  metadata(): ProtectedResourceMetadata {
    const scopes = this.options.scopesSupported ?? this.requiredScopes;
    const document: ProtectedResourceMetadata = {
      resource: this.resource,
      authorization_servers: [this.issuer],
      bearer_methods_supported: ['header'],
    };
    if (scopes.length > 0) document.scopes_supported = [...scopes];
    document.resource_name = this.options.resourceName ?? OAUTH_DEFAULTS.resourceName;
    if (this.options.resourceDocumentation)
      document.resource_documentation = this.options.resourceDocumentation;
    return document;
  }

  /** The status and `WWW-Authenticate` header for a refusal. */
  challenge(refusal: BearerRefusal): { status: 401 | 403; header: string } {
    const scopes =
      refusal.error === 'missing' && this.requiredScopes.length > 0 ? this.requiredScopes : refusal.scopes;
    return bearerChallenge({ ...refusal, ...(scopes ? { scopes } : {}) }, this.resourceMetadataUrl);
  }

  /** The principal of an `Authorization` header, or why it is refused. */
  async authenticate(header: string | undefined): Promise<OAuthOutcome> {
    const token = bearerToken(header);
    if (token === undefined) return { refusal: { error: 'missing' } };
    try {
      const claims = await this.claimsOf(token);
      const granted = new Set(tokenScopes(claims));
      const missing = this.requiredScopes.filter((scope) => !granted.has(scope));
      if (missing.length > 0)
        throw new BearerTokenError(
          'insufficient_scope',
          'The token lacks a required scope',
          this.requiredScopes,
        );
      return { principal: principalFromClaims(claims, this.options.claims) };
    } catch (error) {
      if (error instanceof IssuerUnavailableError) this.onIssuerError?.(error.reason);
      if (error instanceof BearerTokenError) return { refusal: error.refusal };
      throw error;
    }
  }

  private async claimsOf(token: string): Promise<Claims> {
    if (looksLikeJwt(token)) return (await this.jwtVerifier()).verify(token);
    const introspector = await this.introspectorOf();
    if (!introspector) throw new BearerTokenError('invalid_token', 'The token is not a JWT access token');
    return introspector.introspect(token);
  }

  private audiences(): string[] {
    return [this.resource, ...(this.options.audiences ?? [])];
  }

  /** The issuer's metadata, fetched once; a failed fetch is tried again on the next token. */
  private issuerMetadata(): Promise<IssuerMetadata> {
    this.discovered ??= discoverIssuer(this.issuer, this.timeoutMs).catch((error: unknown) => {
      this.discovered = undefined;
      throw error;
    });
    return this.discovered;
  }

  private get timeoutMs(): number {
    return this.options.fetchTimeoutMs ?? OAUTH_DEFAULTS.fetchTimeoutMs;
  }

  private jwtVerifier(): Promise<JwtVerifier> {
    this.jwt ??= (async () => {
      const jwksUri = this.options.jwksUri ?? (await this.issuerMetadata()).jwks_uri;
      if (!jwksUri) throw new AuthConfigError(`The issuer ${this.issuer} publishes no jwks_uri`);
      return new JwtVerifier(jwksUri, {
        issuer: this.issuer,
        audiences: this.audiences(),
        algorithms: this.options.algorithms ?? DEFAULT_ALGORITHMS,
        clockToleranceSec: this.options.clockToleranceSec ?? OAUTH_DEFAULTS.clockToleranceSec,
        cooldownMs: this.options.jwksCooldownMs ?? OAUTH_DEFAULTS.jwksCooldownMs,
        maxAgeMs: this.options.jwksMaxAgeMs ?? OAUTH_DEFAULTS.jwksMaxAgeMs,
        timeoutMs: this.timeoutMs,
      });
    })().catch((error: unknown) => {
      this.jwt = undefined;
      throw unavailable(error);
    });
    return this.jwt;
  }

  private introspectorOf(): Promise<Introspector | undefined> {
    const config = this.options.introspection;
    if (!config) return Promise.resolve(undefined);
    this.introspector ??= (async () => {
      const url = config.url ?? (await this.issuerMetadata()).introspection_endpoint;
      if (!url) throw new AuthConfigError(`The issuer ${this.issuer} publishes no introspection_endpoint`);
      return new Introspector({
        url,
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        issuer: this.issuer,
        audiences: this.audiences(),
        clockToleranceSec: this.options.clockToleranceSec ?? OAUTH_DEFAULTS.clockToleranceSec,
        timeoutMs: this.timeoutMs,
      });
    })().catch((error: unknown) => {
      this.introspector = undefined;
      throw unavailable(error);
    });
    return this.introspector;
  }
}

function unavailable(error: unknown): IssuerUnavailableError {
  return new IssuerUnavailableError(error);
}
