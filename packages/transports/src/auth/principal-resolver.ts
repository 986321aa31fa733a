/**
 * Who is calling (MCP.md 8.8). A transport fills a `RequestInfo`; a resolver maps it to a
 * principal, and anything it cannot decide falls back to `defaultPrincipalResolver`.
 */
import { Principal } from '@cloudg/core';
import type { TransportKind } from '../protocol/session.js';
import { bearerToken } from './token-auth.js';

/** An OAuth access token validated by the host (its client id and scopes). */
export interface AccessTokenInfo {
  clientId?: string;
  scopes?: string[];
}

export interface RequestInfoInit {
  transport: TransportKind;
  headers?: Record<string, string | string[] | undefined>;
  sessionId?: string;
  clientInfo?: Record<string, unknown>;
  accessToken?: AccessTokenInfo;
  principal?: Principal;
  raw?: unknown;
}

export class RequestInfo {
  readonly transport: TransportKind;
  /** Lower-cased names; repeated headers joined with `, `. Empty on stdio. */
  readonly headers: Readonly<Record<string, string>>;
  readonly sessionId: string | undefined;
  readonly clientInfo: Record<string, unknown> | undefined;
  readonly accessToken: AccessTokenInfo | undefined;
  /** A principal an auth layer already established (the bearer token's). */
  readonly principal: Principal | undefined;
  readonly raw: unknown;

  constructor(init: RequestInfoInit) {
    this.transport = init.transport;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    this.headers = headers;
    this.sessionId = init.sessionId;
    this.clientInfo = init.clientInfo;
    this.accessToken = init.accessToken;
    this.principal = init.principal;
    this.raw = init.raw;
  }

  header(name: string): string | undefined;
  header(name: string, fallback: string): string;
  header(name: string, fallback?: string): string | undefined {
    return this.headers[name.toLowerCase()] ?? fallback;
  }

  get bearerToken(): string | undefined {
    return bearerToken(this.headers.authorization);
  }
}

export type PrincipalResolver = (
  info: RequestInfo,
) => Principal | null | undefined | Promise<Principal | null | undefined>;

/**
 * The default order: a principal an auth layer set; an OAuth token's client and scopes; the local
 * user on stdio and in memory; anonymous for everything else. Never `clientInfo`, which any client
 * can fill with anything.
 */
export function defaultPrincipalResolver(info: RequestInfo): Principal {
  if (info.principal) return info.principal;
  if (info.accessToken) {
    const scopes = [...(info.accessToken.scopes ?? [])];
    return new Principal({
      id: info.accessToken.clientId || 'oauth-client',
      roles: ['default', ...scopes],
      attributes: { auth: 'oauth', scopes },
    });
  }
  if (info.transport === 'stdio' || info.transport === 'memory') return Principal.local();
  return Principal.anonymous();
}

/** Run a resolver; `null`/`undefined` or a throw (logged) falls back to the default resolver. */
export async function resolvePrincipal(
  resolver: PrincipalResolver | undefined,
  info: RequestInfo,
  onError?: (error: unknown) => void,
): Promise<Principal> {
  if (resolver) {
    try {
      const principal = await resolver(info);
      if (principal) return principal;
    } catch (error) {
      onError?.(error);
    }
  }
  return defaultPrincipalResolver(info);
}
