/**
 * The `serve` options for sign-in with an identity provider (docs/sign-in.md): flags for the
 * issuer, the resource, the scopes and the claim mapping, with the issuer also read from
 * CLOUDG_MCP_OAUTH_ISSUER. The introspection secret comes only from the environment, so it never
 * shows in a process list or a shell history.
 */
import type { OAuthOptions } from '@cloudg/transports';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import { collect } from './option-values.js';

export interface OAuthFlags {
  oauthIssuer?: string;
  oauthResource?: string;
  oauthAudience?: string[];
  oauthScope?: string[];
  oauthIdClaim?: string;
  oauthRolesClaim?: string[];
  oauthRole?: string[];
  oauthJwksUri?: string;
  oauthIntrospectionClient?: string;
  oauthIntrospectionUrl?: string;
}

export const INTROSPECTION_SECRET_ENV = 'CLOUDG_MCP_OAUTH_CLIENT_SECRET';

export function addOAuthOptions(command: Command): Command {
  return command
    .option(
      '--oauth-issuer <URL>',
      'accept access tokens from this OAuth/OIDC issuer (env CLOUDG_MCP_OAUTH_ISSUER)',
    )
    .option(
      '--oauth-resource <URL>',
      "this server's public MCP URL, the audience tokens must name (default: the bound URL)",
    )
    .option(
      '--oauth-audience <AUD>',
      'also accept this audience (Entra ID api://... ids); repeatable',
      collect,
    )
    .option(
      '--oauth-scope <SCOPE>',
      'scope every token must carry (403 insufficient_scope without); repeatable',
      collect,
    )
    .option('--oauth-id-claim <CLAIM>', 'claim naming the principal (default sub)')
    .option(
      '--oauth-roles-claim <CLAIM>',
      'claim whose values become roles: scope, groups, roles or a dotted path; repeatable (default scope)',
      collect,
    )
    .option(
      '--oauth-role <VALUE=ROLE[,ROLE]>',
      'map a claim value to roles; only mapped values then count; repeatable',
      collect,
    )
    .option('--oauth-jwks-uri <URL>', "the issuer's key set (default: from its metadata)")
    .option(
      '--oauth-introspection-client <ID>',
      `check opaque tokens by introspection as this client (secret in ${INTROSPECTION_SECRET_ENV})`,
    )
    .option('--oauth-introspection-url <URL>', 'introspection endpoint (default: from the issuer metadata)');
}

function url(value: string, flag: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new CliError(`Invalid value for ${flag}: expected an http(s) URL, got '${value}'`, 2);
}

/** `VALUE=ROLE[,ROLE]` pairs to a role map; the value may itself contain `=` (split at the last). */
function roleMap(pairs: string[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    const value = pair.slice(0, at);
    const roles = pair
      .slice(at + 1)
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
    if (at <= 0 || roles.length === 0)
      throw new CliError(`Invalid value for --oauth-role: expected VALUE=ROLE[,ROLE], got '${pair}'`, 2);
    map[value] = [...(map[value] ?? []), ...roles];
  }
  return map;
}

function otherFlagsWithoutIssuer(flags: OAuthFlags): string | undefined {
  const names: Array<[keyof OAuthFlags, string]> = [
    ['oauthResource', '--oauth-resource'],
    ['oauthAudience', '--oauth-audience'],
    ['oauthScope', '--oauth-scope'],
    ['oauthIdClaim', '--oauth-id-claim'],
    ['oauthRolesClaim', '--oauth-roles-claim'],
    ['oauthRole', '--oauth-role'],
    ['oauthJwksUri', '--oauth-jwks-uri'],
    ['oauthIntrospectionClient', '--oauth-introspection-client'],
    ['oauthIntrospectionUrl', '--oauth-introspection-url'],
  ];
  return names.find(([key]) => flags[key] !== undefined)?.[1];
}

/** The server's `oauth` option from the flags, or undefined without an issuer. */
export function oauthOptionsFrom(flags: OAuthFlags, env: NodeJS.ProcessEnv): OAuthOptions | undefined {
  const issuer = flags.oauthIssuer ?? (env.CLOUDG_MCP_OAUTH_ISSUER?.trim() || undefined);
  if (issuer === undefined) {
    const stray = otherFlagsWithoutIssuer(flags);
    // A mapping without an issuer would otherwise be silently ignored.
    if (stray) throw new CliError(`${stray} needs --oauth-issuer`, 2);
    return undefined;
  }
  const options: OAuthOptions = { issuer: url(issuer, '--oauth-issuer') };
  if (flags.oauthResource) options.resource = url(flags.oauthResource, '--oauth-resource');
  if (flags.oauthAudience?.length) options.audiences = [...flags.oauthAudience];
  if (flags.oauthScope?.length) options.requiredScopes = [...flags.oauthScope];
  if (flags.oauthJwksUri) options.jwksUri = url(flags.oauthJwksUri, '--oauth-jwks-uri');
  const claims: NonNullable<OAuthOptions['claims']> = {};
  if (flags.oauthIdClaim) claims.id = flags.oauthIdClaim;
  if (flags.oauthRolesClaim?.length) claims.roles = [...flags.oauthRolesClaim];
  if (flags.oauthRole?.length) claims.roleMap = roleMap(flags.oauthRole);
  if (Object.keys(claims).length > 0) options.claims = claims;
  if (flags.oauthIntrospectionClient) {
    const secret = env[INTROSPECTION_SECRET_ENV];
    if (!secret)
      throw new CliError(
        `--oauth-introspection-client needs the client secret in ${INTROSPECTION_SECRET_ENV}`,
        2,
      );
    options.introspection = { clientId: flags.oauthIntrospectionClient, clientSecret: secret };
    if (flags.oauthIntrospectionUrl)
      options.introspection.url = url(flags.oauthIntrospectionUrl, '--oauth-introspection-url');
  } else if (flags.oauthIntrospectionUrl) {
    throw new CliError('--oauth-introspection-url needs --oauth-introspection-client', 2);
  }
  return options;
}
