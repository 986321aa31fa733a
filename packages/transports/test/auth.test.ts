/** Token specs (MCP.md 6.3), token lookup and the principal resolvers (8.8). */
import { Principal } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import {
  AuthConfigError,
  defaultPrincipalResolver,
  parseTokenSpec,
  RequestInfo,
  resolvePrincipal,
  TokenAuth,
} from '../src/index.js';

describe('parseTokenSpec', () => {
  const env = { CLOUDG_MCP_TOKEN: 'from-env' };
  it.each([
    ['s3cret', 's3cret', 'token-1ec1c26b', ['default']],
    ['s3cret:analyst', 's3cret', 'token-1ec1c26b', ['analyst', 'default']],
    ['s3cret:analyst,admin:alice', 's3cret', 'alice', ['admin', 'analyst', 'default']],
    ['s3cret::alice', 's3cret', 'alice', ['default']],
    ['env:CLOUDG_MCP_TOKEN:analyst:ci-bot', 'from-env', 'ci-bot', ['analyst', 'default']],
    ['abc:def::', 'abc:def', 'token-ec595285', ['default']],
    ['abc:def:analyst:', 'abc:def', 'token-ec595285', ['analyst', 'default']],
    ['abc:def', 'abc', 'token-ba7816bf', ['def', 'default']],
  ])('reads %s from the right', (spec, token, id, roles) => {
    expect(parseTokenSpec(spec, env)).toEqual({ token, id, roles });
  });

  it('refuses an empty environment variable, naming the variable', () => {
    expect(() => parseTokenSpec('env:NOPE_VAR:x', {})).toThrow(
      "Environment variable 'NOPE_VAR' for an auth token is empty",
    );
    expect(() => parseTokenSpec(':analyst:id', {})).toThrow(AuthConfigError);
  });
});

describe('TokenAuth', () => {
  it('maps tokens to principals with default added, or to a principal as given', () => {
    const admin = new Principal({ id: 'admin-1', roles: ['admin'] });
    const auth = new TokenAuth({ 't-analyst': 'analyst', 't-ops': ['ops', 'analyst'], 't-admin': admin });
    expect(auth.authenticate('Bearer t-ops')?.toJSON()).toEqual({
      id: expect.stringMatching(/^token-[0-9a-f]{8}$/),
      roles: ['analyst', 'default', 'ops'],
    });
    expect(auth.authenticate('bearer t-analyst')?.sortedRoles()).toEqual(['analyst', 'default']);
    expect(auth.authenticate('Bearer t-admin')).toBe(admin);
    expect(auth.authenticate('Bearer nope')).toBeUndefined();
    expect(auth.authenticate('Basic t-ops')).toBeUndefined();
    expect(auth.authenticate(undefined)).toBeUndefined();
  });

  it('builds from specs and is required unless told otherwise', () => {
    const auth = TokenAuth.fromSpecs(['s3cret:analyst:alice']);
    expect(auth.required).toBe(true);
    expect(auth.lookup('s3cret')?.toJSON()).toEqual({ id: 'alice', roles: ['analyst', 'default'] });
    expect(TokenAuth.fromSpecs([], { required: false }).required).toBe(false);
  });
});

describe('principal resolvers', () => {
  it('default order: auth principal, OAuth token, local on stdio, anonymous otherwise', () => {
    const set = new Principal({ id: 'alice', roles: ['analyst'] });
    expect(defaultPrincipalResolver(new RequestInfo({ transport: 'http', principal: set }))).toBe(set);
    const oauth = defaultPrincipalResolver(
      new RequestInfo({ transport: 'http', accessToken: { clientId: 'app', scopes: ['read'] } }),
    );
    expect(oauth.toJSON()).toEqual({ id: 'app', roles: ['default', 'read'] });
    expect(oauth.attributes).toEqual({ auth: 'oauth', scopes: ['read'] });
    expect(defaultPrincipalResolver(new RequestInfo({ transport: 'http', accessToken: {} })).id).toBe(
      'oauth-client',
    );
    expect(defaultPrincipalResolver(new RequestInfo({ transport: 'stdio' }))).toBe(Principal.local());
    expect(defaultPrincipalResolver(new RequestInfo({ transport: 'http' }))).toBe(Principal.anonymous());
  });

  it('a resolver that returns nothing or throws falls back to the default', async () => {
    const info = new RequestInfo({ transport: 'http', headers: { 'X-Authenticated-User': 'bob' } });
    expect(info.header('x-authenticated-user')).toBe('bob');
    const gateway = (i: RequestInfo) => {
      const user = i.header('x-authenticated-user');
      return user ? new Principal({ id: user, roles: ['default'] }) : undefined;
    };
    expect((await resolvePrincipal(gateway, info)).id).toBe('bob');
    expect(await resolvePrincipal(() => null, info)).toBe(Principal.anonymous());
    const errors: unknown[] = [];
    const failing = () => {
      throw new Error('resolver down');
    };
    expect(await resolvePrincipal(failing, info, (e) => errors.push(e))).toBe(Principal.anonymous());
    expect(errors).toHaveLength(1);
  });

  it('reads the bearer token from the headers', () => {
    expect(new RequestInfo({ transport: 'http', headers: { authorization: 'Bearer abc' } }).bearerToken).toBe(
      'abc',
    );
  });
});
