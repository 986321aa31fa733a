/**
 * cloudg's native HTTP server as an OAuth 2.1 protected resource, against a real authorization
 * server running in-process (oidc-provider, test/support/oidc.ts) and the official MCP client 2.4.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type AnySpec, AuditLogMiddleware, allowAllPolicy, createLogger, Principal } from '@cloudg/core';
import {
  Client,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthConfigError,
  createMcpRequestHandler,
  type HttpServerOptions,
  type RunningHttpServer,
  serveHttp,
} from '../src/index.js';
import {
  type AuthorizationServer,
  INTROSPECTOR,
  REDIRECT_URI,
  startAuthorizationServer,
} from './support/oidc.js';
import { ENVELOPE } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

type Mode = 'auto' | 'legacy';
const EXPECTED: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };

/** `touch` is for the ops role only; everything else is visible to everyone. */
const opsPolicy = {
  ...allowAllPolicy,
  name: 'ops-only-touch',
  isAllowed: (spec: AnySpec, principal: Principal) => spec.name !== 'touch' || principal.hasRole('ops'),
};

let as: AuthorizationServer;
let running: RunningHttpServer | undefined;
let client: Client | undefined;

beforeAll(async () => {
  as = await startAuthorizationServer();
});
afterAll(async () => {
  await as.close();
});
afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
  await running?.close();
  running = undefined;
  as.format = 'jwt';
  as.ttl = 300;
});

async function serve(
  options: Partial<HttpServerOptions> = {},
  layerOptions: Parameters<typeof buildLayer>[0] = {},
): Promise<RunningHttpServer> {
  running = await serveHttp(buildLayer({ policy: opsPolicy, ...layerOptions }), {
    port: 0,
    oauth: {
      issuer: as.issuer,
      requiredScopes: ['mcp:tools'],
      claims: { roles: ['groups'], roleMap: { 'sec-ops': 'ops', 'sec-analysts': 'analyst' } },
      clockToleranceSec: 0,
      jwksCooldownMs: 0,
      ...options.oauth,
    },
    ...Object.fromEntries(Object.entries(options).filter(([k]) => k !== 'oauth')),
  });
  return running;
}

/** An initialize request opens a session, so it stands for any first request of a client. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(url: string, token?: string, body: unknown = INITIALIZE) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

function newClient(mode: Mode): Client {
  return new Client({ name: 'cloudg-oauth-test', version: '1.0.0' }, { versionNegotiation: { mode } });
}

/** An interactive client (a desktop app): public, PKCE, the browser's part done by `as.authorize`. */
class DesktopClient implements OAuthClientProvider {
  private saved: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  private verifier = '';
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata = {
    client_name: 'desktop',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return { client_id: 'desktop' };
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<Awaited<ReturnType<OAuthClientProvider['tokens']>>>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept between the redirect and the callback, so the SDK can check the callback's issuer.
  private discovery: OAuthDiscoveryState | undefined;
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

async function whoamiOf(c: Client): Promise<unknown> {
  const result = await c.callTool({ name: 'whoami', arguments: {} });
  return result.structuredContent;
}

async function toolNames(c: Client): Promise<string[]> {
  return (await c.listTools()).tools.map((t) => t.name).sort();
}

describe.each(['auto', 'legacy'] as const)('the official client, negotiation %s', (mode) => {
  it(`discovers the metadata, gets a client-credentials token and calls tools (${EXPECTED[mode]})`, async () => {
    const { url } = await serve();
    client = newClient(mode);
    const authProvider = new ClientCredentialsProvider({
      clientId: 'ops-bot',
      clientSecret: 'ops-secret',
      scope: 'mcp:tools',
      expectedIssuer: as.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    expect(client.getNegotiatedProtocolVersion()).toBe(EXPECTED[mode]);
    expect(await whoamiOf(client)).toEqual({ id: 'ops-bot', roles: ['default', 'ops'] });
    expect(await toolNames(client)).toContain('touch');
  });

  it(`signs a user in with the authorization code and PKCE, then calls tools (${EXPECTED[mode]})`, async () => {
    const { url } = await serve();
    const desktop = new DesktopClient();
    client = newClient(mode);
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: desktop });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = desktop.authorizationUrl as URL;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(url);
    const callback = await as.authorize(authorizationUrl);
    await first.finishAuth(callback);
    await client.close().catch(() => {});
    client = newClient(mode);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: desktop }));
    expect(client.getNegotiatedProtocolVersion()).toBe(EXPECTED[mode]);
    expect(await whoamiOf(client)).toEqual({ id: 'alice', roles: ['analyst', 'default'] });
    // The analyst role does not include ops: touch is hidden, exactly as for a static token.
    expect(await toolNames(client)).not.toContain('touch');
  });
});

describe('tokens that are refused', () => {
  const challenge = (port: number, error: string, description: string) =>
    `Bearer error="${error}", error_description="${description}", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`;

  it('refuses an expired token with 401 invalid_token', async () => {
    const { url, port } = await serve();
    as.ttl = 1;
    const token = await as.clientCredentials('ci-bot', { resource: url });
    // Not tried while valid: on a loaded machine a one-second token can expire before a first answer.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      challenge(port, 'invalid_token', 'The token has expired'),
    );
  });

  it('refuses a token issued for another resource (no passthrough)', async () => {
    const { url, port } = await serve();
    const token = await as.clientCredentials('ci-bot', { resource: 'https://other.example/mcp' });
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      challenge(port, 'invalid_token', 'The token was issued for another resource'),
    );
  });

  it('refuses a token from another issuer, even one signed with the same key', async () => {
    const { url, port } = await serve();
    const other = await startAuthorizationServer({ keys: as.keys });
    try {
      const token = await other.clientCredentials('ci-bot', { resource: url });
      const response = await post(url, token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        challenge(port, 'invalid_token', 'The token was issued by another issuer'),
      );
    } finally {
      await other.close();
    }
  });

  it('refuses a tampered token (a changed claim breaks the signature)', async () => {
    const { url, port } = await serve();
    const token = await as.clientCredentials('ci-bot', { resource: url });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    claims.groups = ['sec-ops'];
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const response = await post(url, forged);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      challenge(port, 'invalid_token', 'The token signature is not valid'),
    );
  });

  it('refuses a revoked opaque token, checked by introspection', async () => {
    const { url, port } = await serve({
      oauth: {
        issuer: as.issuer,
        introspection: { clientId: INTROSPECTOR.client_id, clientSecret: INTROSPECTOR.client_secret },
      },
    });
    as.format = 'opaque';
    const token = await as.clientCredentials('ops-bot', { resource: url });
    expect(token.split('.')).toHaveLength(1);
    const ok = await post(url, token);
    expect(ok.status).toBe(200);
    await as.revoke(token, 'ops-bot');
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      challenge(port, 'invalid_token', 'The token is not active'),
    );
  });

  it('refuses an ID token even when its audience is accepted', async () => {
    const { url, port } = await serve({ oauth: { issuer: as.issuer, audiences: ['desktop'] } });
    const tokens = await as.codeFlow({ resource: url, scope: 'openid mcp:tools' });
    expect((await post(url, tokens.access_token)).status).toBe(200);
    const idToken = tokens.id_token as string;
    const [, payload = ''] = idToken.split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString()).aud).toBe('desktop');
    const response = await post(url, idToken);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      challenge(port, 'invalid_token', 'The token is an ID token, not an access token'),
    );
  });

  it('refuses an opaque token when no introspection is configured', async () => {
    const { url } = await serve();
    as.format = 'opaque';
    const token = await as.clientCredentials('ci-bot', { resource: url });
    expect((await post(url, token)).status).toBe(401);
  });

  it('answers a token without the required scope 403 insufficient_scope, naming the scope', async () => {
    const { url, port } = await serve();
    const token = await as.clientCredentials('ci-bot', { resource: url, scope: 'other' });
    const response = await post(url, token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="The token lacks a required scope", scope="mcp:tools", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('mounted in an existing app', () => {
  it('needs the resource, then serves the metadata and accepts tokens for it', async () => {
    expect(() => createMcpRequestHandler(buildLayer(), { oauth: { issuer: as.issuer } })).toThrow(
      AuthConfigError,
    );
    const app = createServer();
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const handler = createMcpRequestHandler(buildLayer({ policy: opsPolicy }), {
      oauth: {
        issuer: as.issuer,
        resource: `${base}/mcp`,
        claims: { roles: ['groups'], roleMap: { 'sec-ops': 'ops' } },
      },
    });
    app.on('request', (req, res) => handler(req, res));
    try {
      const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
      expect(((await metadata.json()) as { resource: string }).resource).toBe(`${base}/mcp`);
      client = newClient('auto');
      const authProvider = new ClientCredentialsProvider({
        clientId: 'ops-bot',
        clientSecret: 'ops-secret',
        expectedIssuer: as.issuer,
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider }));
      expect(await whoamiOf(client)).toEqual({ id: 'ops-bot', roles: ['default', 'ops'] });
      await client.close();
      client = undefined;
    } finally {
      await handler.close();
      app.closeAllConnections();
      await new Promise((resolve) => app.close(resolve));
    }
  });
});

describe('an issuer that cannot be used', () => {
  it('refuses tokens with 401 and logs why, when the metadata names another issuer', async () => {
    let logged = '';
    const destination = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          logged += String(chunk);
          done();
        },
      }),
      { isTTY: false },
    );
    const logger = createLogger({ level: 'warn', format: 'json', destination });
    // One character off: the provider's metadata says the issuer has no trailing slash.
    const { url, port } = await serve({ oauth: { issuer: `${as.issuer}/` } }, { logger });
    const token = await as.clientCredentials('ci-bot', { resource: url });
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The token could not be checked", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(logged).toContain('OAuth issuer unavailable; tokens are refused');
    expect(logged).toContain(`not the configured ${as.issuer}/`);
    expect(logged).not.toContain(token);
  });

  it('refuses tokens with 401 and logs why, when the key set cannot be fetched', async () => {
    let logged = '';
    const destination = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          logged += String(chunk);
          done();
        },
      }),
      { isTTY: false },
    );
    const logger = createLogger({ level: 'warn', format: 'json', destination });
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const { url } = await serve(
      { oauth: { issuer: as.issuer, jwksUri: 'http://127.0.0.1:1/jwks' } },
      { logger },
    );
    const token = await as.clientCredentials('ci-bot', { resource: url });
    const response = await post(url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      'error_description="The token could not be checked"',
    );
    expect(logged).toContain('OAuth issuer unavailable; tokens are refused');
  });
});

describe('keys, roles and sessions', () => {
  it('picks up a key rotation at the issuer; tokens signed with the retired key are refused', async () => {
    const { url } = await serve();
    const before = await as.clientCredentials('ci-bot', { resource: url });
    expect((await post(url, before)).status).toBe(200);
    await as.rotateKeys();
    const after = await as.clientCredentials('ci-bot', { resource: url });
    expect(after.split('.')[0]).not.toBe(before.split('.')[0]);
    expect((await post(url, after)).status).toBe(200);
    expect((await post(url, before)).status).toBe(401);
  });

  it("a role from a group claim changes tools/list exactly as a static token's role does", async () => {
    const { url } = await serve({ stateless: true, authTokens: ['svc-ops:ops:svc', 'svc-plain::svc-plain'] });
    const list = async (token: string) => {
      const response = await post(url, token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result: { tools: Array<{ name: string }> } };
      return body.result.tools.map((t) => t.name).sort();
    };
    const opsToken = await as.clientCredentials('ops-bot', { resource: url });
    const ciToken = await as.clientCredentials('ci-bot', { resource: url });
    expect(await list(opsToken)).toEqual(await list('svc-ops'));
    expect(await list(ciToken)).toEqual(await list('svc-plain'));
    expect(await list(opsToken)).toContain('touch');
    expect(await list(ciToken)).not.toContain('touch');
  });
});

describe('protected resource metadata and challenges', () => {
  it('publishes RFC 9728 metadata at the well-known paths, without a token', async () => {
    const { url, port } = await serve();
    const expected = {
      resource: url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
      resource_name: 'cloudg',
    };
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expected);
    }
  });

  it('guards the deprecated HTTP+SSE endpoints the same way', async () => {
    const { url, port } = await serve({ transport: 'sse' });
    const refused = await fetch(`http://127.0.0.1:${port}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    const token = await as.clientCredentials('ci-bot', { resource: url });
    const controller = new AbortController();
    const opened = await fetch(`http://127.0.0.1:${port}/sse`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    expect(opened.status).toBe(200);
    controller.abort();
  });

  it('answers a request without a token 401, pointing at the metadata with the scope to ask for', async () => {
    const { url, port } = await serve();
    const response = await post(url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('each request carries its own token', () => {
  const whoami = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'whoami', arguments: {} },
  });
  const callerOf = async (response: Response) => {
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { structuredContent: unknown } };
    return body.result.structuredContent;
  };

  it('continues a session only with a token of the same subject and roles', async () => {
    const { url } = await serve({ jsonResponse: true });
    const first = await as.clientCredentials('ops-bot', { resource: url });
    const opened = await post(url, first);
    const session = opened.headers.get('mcp-session-id') as string;
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    const inSession = (token: string, id: number) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': session,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(whoami(id)),
      });
    // A fresh token for the same client (a refresh, say) continues the session.
    const renewed = await as.clientCredentials('ops-bot', { resource: url });
    expect(renewed).not.toBe(first);
    expect(await callerOf(await inSession(renewed, 2))).toEqual({ id: 'ops-bot', roles: ['default', 'ops'] });
    // Another subject's valid token does not.
    const other = await as.clientCredentials('ci-bot', { resource: url });
    const refused = await inSession(other, 3);
    expect(refused.status).toBe(404);
  });

  it('without sessions, each request runs as the principal of its own token (both eras)', async () => {
    const { url } = await serve({ stateless: true, jsonResponse: true });
    const ops = await as.clientCredentials('ops-bot', { resource: url });
    const ci = await as.clientCredentials('ci-bot', { resource: url });
    expect(await callerOf(await post(url, ops, whoami(1)))).toEqual({
      id: 'ops-bot',
      roles: ['default', 'ops'],
    });
    expect(await callerOf(await post(url, ci, whoami(2)))).toEqual({ id: 'ci-bot', roles: ['default'] });
    const modern = (token: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'whoami',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          ...whoami(3),
          params: {
            name: 'whoami',
            arguments: {},
            _meta: ENVELOPE,
          },
        }),
      });
    expect(await callerOf(await modern(ops))).toEqual({ id: 'ops-bot', roles: ['default', 'ops'] });
    expect(await callerOf(await modern(ci))).toEqual({ id: 'ci-bot', roles: ['default'] });
  });

  it("gives a principal resolver the token's client and scopes", async () => {
    const { url } = await serve({
      stateless: true,
      jsonResponse: true,
      principalResolver: (info) =>
        info.accessToken
          ? new Principal({
              id: `${info.accessToken.clientId}@resolver`,
              roles: ['default', ...(info.accessToken.scopes ?? []).map((scope) => `scope-${scope}`)],
            })
          : undefined,
    });
    const token = await as.clientCredentials('ci-bot', { resource: url });
    expect(await callerOf(await post(url, token, whoami(1)))).toEqual({
      id: 'ci-bot@resolver',
      roles: ['default', 'scope-mcp:tools'],
    });
  });

  it('the audit log records the subject and the client id, never the token', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const audit = new AuditLogMiddleware({ stream });
    const { url } = await serve({ stateless: true, jsonResponse: true }, { middleware: [audit.middleware] });
    const token = await as.clientCredentials('ops-bot', { resource: url });
    await callerOf(await post(url, token, whoami(1)));
    const record = JSON.parse(lines.join('').trim().split('\n').at(-1) as string);
    expect(record.principal).toEqual({ client_id: 'ops-bot', id: 'ops-bot', roles: ['default', 'ops'] });
    const [, , signature] = token.split('.');
    expect(lines.join('')).not.toContain(signature);
  });
});
