/** The pieces of sign-in a deployment's configuration depends on: claim mapping, challenges, metadata paths. */
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../src/auth/oauth/challenge.js';
import { principalFromClaims } from '../src/auth/oauth/claims.js';
import { discoveryUrls } from '../src/auth/oauth/discovery.js';
import { metadataPaths, metadataUrlFor } from '../src/auth/oauth/metadata.js';

describe('claims to principal', () => {
  it('takes the id from sub and the roles from the scopes by default, plus default', () => {
    const principal = principalFromClaims({
      sub: 'alice',
      scope: 'mcp:tools read',
      client_id: 'vscode',
      iss: 'https://idp',
    });
    expect(principal.toJSON()).toEqual({ id: 'alice', roles: ['default', 'mcp:tools', 'read'] });
    expect(principal.attributes).toEqual({
      auth: 'oauth',
      subject: 'alice',
      scopes: ['mcp:tools', 'read'],
      client_id: 'vscode',
      issuer: 'https://idp',
    });
  });

  it('reads Entra and Okta scopes from scp, and names a client-credentials token by its client', () => {
    expect(principalFromClaims({ scp: 'mcp.tools', azp: 'svc-app' }).toJSON()).toEqual({
      id: 'svc-app',
      roles: ['default', 'mcp.tools'],
    });
    expect(principalFromClaims({ sub: 'u1', scp: ['a', 'b'] }).toJSON()).toEqual({
      id: 'u1',
      roles: ['a', 'b', 'default'],
    });
  });

  it('maps groups and nested role claims through the role map; unmapped values grant nothing', () => {
    const claims = {
      sub: '5f1c',
      preferred_username: 'alice@example.com',
      groups: ['sec-analysts', 'everyone'],
      realm_access: { roles: ['offline_access', 'sec-leads'] },
      'https://cloudg.example.com/groups': ['sec-ops'],
    };
    const principal = principalFromClaims(claims, {
      id: 'preferred_username',
      roles: ['groups', 'realm_access.roles', 'https://cloudg.example.com/groups'],
      roleMap: { 'sec-analysts': 'analyst', 'sec-leads': ['lead', 'analyst'], 'sec-ops': 'ops' },
    });
    expect(principal.toJSON()).toEqual({
      id: 'alice@example.com',
      roles: ['analyst', 'default', 'lead', 'ops'],
    });
  });

  it('refuses a token that names no one', () => {
    expect(() => principalFromClaims({ scope: 'a' })).toThrow('The token has no sub claim');
  });
});

describe('challenges', () => {
  it('quote their parameters and never lose the metadata URL', () => {
    expect(
      bearerChallenge(
        { error: 'invalid_token', description: 'say "hi"\\n', scopes: ['a', 'b'] },
        'https://x/.well-known/oauth-protected-resource/mcp',
      ),
    ).toEqual({
      status: 401,
      header:
        'Bearer error="invalid_token", error_description="say \\"hi\\"\\\\n", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"',
    });
    expect(bearerChallenge({ error: 'insufficient_scope', scopes: ['a'] }, 'https://x/m').status).toBe(403);
  });
});

describe('well-known locations', () => {
  it('insert the well-known prefix before the resource path (RFC 9728) and serve the root form too', () => {
    expect(metadataUrlFor('https://cloudg.example.com/mcp')).toBe(
      'https://cloudg.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(metadataUrlFor('https://cloudg.example.com/')).toBe(
      'https://cloudg.example.com/.well-known/oauth-protected-resource',
    );
    expect([...metadataPaths('https://cloudg.example.com/team/mcp', '/mcp')]).toEqual([
      '/.well-known/oauth-protected-resource/team/mcp',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it('look for an issuer with a path at the OIDC and the RFC 8414 locations', () => {
    expect(discoveryUrls('https://idp.example.com/realms/security')).toEqual([
      'https://idp.example.com/realms/security/.well-known/openid-configuration',
      'https://idp.example.com/.well-known/oauth-authorization-server/realms/security',
      'https://idp.example.com/.well-known/openid-configuration/realms/security',
    ]);
    expect(discoveryUrls('https://tenant.auth0.com/')).toEqual([
      'https://tenant.auth0.com/.well-known/openid-configuration',
      'https://tenant.auth0.com/.well-known/oauth-authorization-server',
    ]);
  });
});
