/**
 * Access token claims to a principal, through the operator's mapping (options.ts). The policy
 * then sees an ordinary principal: its roles and rules apply exactly as to a static token's.
 */
import { Principal } from '@cloudg/core';
import type { AccessTokenInfo } from '../principal-resolver.js';
import { parseRoles } from '../token-spec.js';
import { BearerTokenError } from './challenge.js';
import { OAUTH_DEFAULTS, type OAuthClaimMapping } from './options.js';

export type Claims = Record<string, unknown>;

/** A claim by name, or by a dotted path when no top-level claim has that exact name. */
export function claimAt(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A claim's values as strings: a space-separated string (scopes) or an array of strings. */
export function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((v) => v !== '');
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

/** The token's scopes: `scope` (RFC 9068), else `scp` (Entra ID, Okta). */
export function tokenScopes(claims: Claims): string[] {
  return claimValues(claims.scope ?? claims.scp);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The client the token was issued to: `client_id` (RFC 9068), else `azp`, else `appid` (Entra ID v1). */
export function tokenClientId(claims: Claims): string | undefined {
  return text(claims.client_id) ?? text(claims.azp) ?? text(claims.appid);
}

/**
 * What a principal resolver sees of a signed-in caller's token (`RequestInfo.accessToken`): its
 * client and scopes, from the principal built here. Nothing for other principals.
 */
export function accessTokenInfo(principal: Principal | undefined): { accessToken?: AccessTokenInfo } {
  const attributes = principal?.attributes;
  if (attributes?.auth !== 'oauth') return {};
  const scopes = Array.isArray(attributes.scopes)
    ? attributes.scopes.filter((s) => typeof s === 'string')
    : [];
  return {
    accessToken: {
      ...(typeof attributes.client_id === 'string' ? { clientId: attributes.client_id } : {}),
      scopes,
    },
  };
}

export function principalFromClaims(claims: Claims, mapping: OAuthClaimMapping = {}): Principal {
  const idClaim = mapping.id ?? OAUTH_DEFAULTS.idClaim;
  const clientId = tokenClientId(claims);
  const id = text(claimAt(claims, idClaim)) ?? clientId;
  if (id === undefined) throw new BearerTokenError('invalid_token', `The token has no ${idClaim} claim`);
  const values: string[] = [];
  for (const name of mapping.roles ?? OAUTH_DEFAULTS.rolesClaims) {
    // `scope` means the token's scopes wherever the provider puts them.
    values.push(...(name === 'scope' ? tokenScopes(claims) : claimValues(claimAt(claims, name))));
  }
  const roleMap = mapping.roleMap;
  const roles = roleMap
    ? values.flatMap((value) => {
        const mapped = Object.hasOwn(roleMap, value) ? roleMap[value] : undefined;
        return mapped === undefined ? [] : typeof mapped === 'string' ? [mapped] : mapped;
      })
    : values;
  const attributes: Record<string, unknown> = { auth: 'oauth', subject: id, scopes: tokenScopes(claims) };
  if (clientId !== undefined) attributes.client_id = clientId;
  const issuer = text(claims.iss);
  if (issuer !== undefined) attributes.issuer = issuer;
  return new Principal({ id, roles: parseRoles(roles), attributes });
}
