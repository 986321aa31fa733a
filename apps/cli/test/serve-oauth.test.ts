/**
 * `serve --oauth-*`: the flags become the server's sign-in options (docs/sign-in.md), and
 * mistakes stop start-up with exit code 2 before anything listens.
 */
import { describe, expect, it } from 'vitest';
import { oauthOptionsFrom } from '../src/oauth-options.js';
import { cli } from './helpers.js';

const ISSUER = 'https://login.example.com/tenant-1/v2.0';

describe('serve --oauth-* options', () => {
  it('map to the issuer, resource, scopes and claim mapping', () => {
    expect(
      oauthOptionsFrom(
        {
          oauthIssuer: ISSUER,
          oauthResource: 'https://mcp.example.com/mcp',
          oauthAudience: ['api://cloudg'],
          oauthScope: ['mcp:tools'],
          oauthIdClaim: 'preferred_username',
          oauthRolesClaim: ['groups', 'realm_access.roles'],
          oauthRole: ['sec-ops=ops', 'sec-analysts=analyst,auditor', 'k=v=reader'],
        },
        {},
      ),
    ).toEqual({
      issuer: ISSUER,
      resource: 'https://mcp.example.com/mcp',
      audiences: ['api://cloudg'],
      requiredScopes: ['mcp:tools'],
      claims: {
        id: 'preferred_username',
        roles: ['groups', 'realm_access.roles'],
        roleMap: { 'sec-ops': ['ops'], 'sec-analysts': ['analyst', 'auditor'], 'k=v': ['reader'] },
      },
    });
  });

  it('read the issuer from CLOUDG_MCP_OAUTH_ISSUER and the introspection secret only from the environment', () => {
    expect(
      oauthOptionsFrom(
        { oauthIntrospectionClient: 'cloudg-resource' },
        { CLOUDG_MCP_OAUTH_ISSUER: ISSUER, CLOUDG_MCP_OAUTH_CLIENT_SECRET: 'shh' },
      ),
    ).toEqual({ issuer: ISSUER, introspection: { clientId: 'cloudg-resource', clientSecret: 'shh' } });
    expect(oauthOptionsFrom({}, {})).toBeUndefined();
  });

  it.each([
    [
      ['--oauth-issuer', 'login.example.com'],
      "Invalid value for --oauth-issuer: expected an http(s) URL, got 'login.example.com'",
    ],
    [['--oauth-role', 'sec-ops=ops'], '--oauth-role needs --oauth-issuer'],
    [
      ['--oauth-issuer', ISSUER, '--oauth-role', 'sec-ops'],
      "Invalid value for --oauth-role: expected VALUE=ROLE[,ROLE], got 'sec-ops'",
    ],
    [
      ['--oauth-issuer', ISSUER, '--oauth-introspection-client', 'cloudg'],
      '--oauth-introspection-client needs the client secret in CLOUDG_MCP_OAUTH_CLIENT_SECRET',
    ],
    [
      ['--oauth-issuer', ISSUER, '--flavor', 'sdk'],
      '--oauth-issuer is served by the native flavor only; drop --flavor sdk',
    ],
  ])('refuse %j before serving', async (args, message) => {
    const env = { ...process.env };
    delete env.CLOUDG_MCP_OAUTH_ISSUER;
    delete env.CLOUDG_MCP_OAUTH_CLIENT_SECRET;
    const run = await cli(['serve', '--transport', 'http', '--port', '0', ...args], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`Error: ${message}\n`);
  });
});
