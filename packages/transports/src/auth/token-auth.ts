/**
 * Static bearer tokens mapped to principals. Only SHA-256 digests are kept, and a lookup compares
 * the probe's digest with every entry in constant time, so timing reveals nothing about which
 * token (if any) matched.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Principal } from '@cloudg/core';
import { AuthConfigError } from './errors.js';
import { defaultTokenId, parseRoles, parseTokenSpec } from './token-spec.js';

export type TokenValue = string | Iterable<string> | Principal;

export interface TokenAuthOptions {
  /** Refuse requests without a valid token (401). When false they run as the anonymous principal. Default true. */
  required?: boolean;
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export class TokenAuth {
  readonly required: boolean;
  private readonly entries: Array<{ digest: Buffer; principal: Principal }> = [];

  /**
   * `tokens` maps a token to roles (a comma list or an iterable; `default` is added) or to a
   * principal, which is used exactly as given.
   */
  constructor(
    tokens: Record<string, TokenValue> | Iterable<[string, TokenValue]> = {},
    options: TokenAuthOptions = {},
  ) {
    this.required = options.required ?? true;
    const pairs = Symbol.iterator in tokens ? tokens : Object.entries(tokens);
    for (const [token, value] of pairs as Iterable<[string, TokenValue]>) this.add(token, value);
  }

  /** From `TOKEN[:ROLES[:ID]]` specs (6.3). */
  static fromSpecs(
    specs: Iterable<string>,
    options: TokenAuthOptions & { env?: NodeJS.ProcessEnv } = {},
  ): TokenAuth {
    const auth = new TokenAuth({}, options);
    for (const spec of specs) {
      const parsed = parseTokenSpec(spec, options.env);
      auth.add(parsed.token, new Principal({ id: parsed.id, roles: parsed.roles }));
    }
    return auth;
  }

  add(token: string, value: TokenValue): this {
    if (token === '') throw new AuthConfigError('An auth token must not be empty');
    const principal =
      value instanceof Principal
        ? value
        : new Principal({ id: defaultTokenId(token), roles: parseRoles(value) });
    this.entries.push({ digest: digest(token), principal });
    return this;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The principal of a token, or undefined. Every entry is compared, match or not. */
  lookup(token: string): Principal | undefined {
    const probe = digest(token);
    let found: Principal | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, probe) && found === undefined) found = entry.principal;
    }
    return found;
  }

  /** The principal for an `Authorization` header value (`Bearer TOKEN`), or undefined. */
  authenticate(header: string | undefined): Principal | undefined {
    const token = bearerToken(header);
    return token === undefined ? undefined : this.lookup(token);
  }
}

/** The token of `Authorization: Bearer TOKEN` (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
