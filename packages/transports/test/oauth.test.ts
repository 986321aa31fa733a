/**
 * cloudg's native HTTP server as an OAuth 2.1 protected resource, against a real authorization
 * server running in-process (oidc-provider, test/support/oidc.ts) and the official MCP client 2.4.
 */

import { type AnySpec, allowAllPolicy, type Principal } from '@cloudg/core';
import {
  type Client,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerOptions, type RunningHttpServer, serveHttp } from '../src/index.js';
import {
  type AuthorizationServer,
  INTROSPECTOR,
  REDIRECT_URI,
  startAuthorizationServer,
} from './support/oidc.js';
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

async function serve(options: Partial<HttpServerOptions> = {}): Promise<RunningHttpServer> {
  running = await serveHttp(buildLayer({ policy: opsPolicy }), {
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

function post(url: string, token?: string, body: unknown = { jsonrpc: '2.0', id: 1, method: 'ping' }) {
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

const whoami = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } };

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

  it('answers a request without a token 401, pointing at the metadata with the scope to ask for', async () => {
    const { url, port } = await serve();
    const response = await post(url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});
