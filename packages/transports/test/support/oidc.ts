/**
 * A real OAuth 2.1 / OpenID Connect authorization server in-process (oidc-provider), for the
 * OAuth tests: static clients, resource indicators with JWT or opaque access tokens, client
 * credentials, authorization code with PKCE (the provider's own login and consent pages, filled
 * in over HTTP as the user `alice`), introspection and revocation. Keys can be rotated, and the
 * token format and lifetime changed between requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/** Who is in which group at the identity provider (users and client-credentials clients alike). */
export const GROUPS: Record<string, string[]> = {
  alice: ['sec-analysts'],
  'ops-bot': ['sec-ops', 'everyone'],
  'ci-bot': ['everyone'],
};

export const CLIENTS = [
  { client_id: 'ci-bot', client_secret: 'ci-secret' },
  { client_id: 'ops-bot', client_secret: 'ops-secret' },
].map((c) => ({
  ...c,
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  scope: 'mcp:tools other',
}));

export interface AuthorizationServer {
  issuer: string;
  /** The signing keys it publishes now (private JWKs). */
  readonly keys: JWK[];
  /** Access tokens issued from now on: `jwt` (RFC 9068) or `opaque` (introspection only). */
  format: 'jwt' | 'opaque';
  /** Access token lifetime in seconds for tokens issued from now on. */
  ttl: number;
  /** A new signing key; the old one is no longer published. */
  rotateKeys(): Promise<void>;
  clientCredentials(clientId: string, options: { resource: string; scope?: string }): Promise<string>;
  revoke(token: string, clientId: string): Promise<void>;
  /** Tokens for alice through the authorization code flow with PKCE, done by hand (no MCP client). */
  codeFlow(options: {
    resource: string;
    scope: string;
  }): Promise<{ access_token: string; id_token?: string }>;
  /** The query of the redirect that ends an authorization request (PKCE; user alice). */
  authorize(authorizationUrl: URL): Promise<URLSearchParams>;
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `k-${Math.random().toString(36).slice(2, 10)}`, alg: 'ES256', use: 'sig' };
}

function secretOf(clientId: string): string {
  const client = [...CLIENTS, INTROSPECTOR].find((c) => c.client_id === clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  return client.client_secret;
}

/** cloudg's own client at the authorization server, for introspection. */
export const INTROSPECTOR = {
  client_id: 'cloudg-resource',
  client_secret: 'introspect-secret',
  grant_types: [] as string[],
  redirect_uris: [] as string[],
  response_types: [] as string[],
};

const DESKTOP = {
  client_id: 'desktop',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  response_types: ['code'],
  redirect_uris: [REDIRECT_URI],
  scope: 'openid mcp:tools',
};

/**
 * Start an authorization server on a free loopback port. `keys` lets a second server (another
 * issuer) sign with the same key, so only its `iss` differs.
 */
export async function startAuthorizationServer(options: { keys?: JWK[] } = {}): Promise<AuthorizationServer> {
  const state = { format: 'jwt' as 'jwt' | 'opaque', ttl: 300, keys: options.keys ?? [await signingKey()] };
  let provider: Provider | undefined;
  const http: Server = createServer((req, res) => (provider as Provider).callback()(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const build = () => {
    provider = new Provider(issuer, {
      clients: [...CLIENTS, INTROSPECTOR, DESKTOP],
      jwks: { keys: state.keys },
      scopes: ['openid', 'mcp:tools', 'other'],
      // Only an ES256 key is published; the default RS256 for ID tokens would have none.
      clientDefaults: {
        grant_types: ['authorization_code'],
        id_token_signed_response_alg: 'ES256',
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      features: {
        // The provider's own login and consent pages, which `authorize` fills in over HTTP.
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        revocation: { enabled: true, allowedPolicy: () => true },
        resourceIndicators: {
          enabled: true,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: 'mcp:tools other',
            audience: resource,
            accessTokenTTL: state.ttl,
            accessTokenFormat: state.format,
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { accountId?: string; clientId?: string }) => ({
        groups: GROUPS[token.accountId ?? token.clientId ?? ''] ?? [],
      }),
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
      cookies: { keys: ['oauth-test-cookie-key'] },
      pkce: { required: () => true },
      // Lifetimes and policies set explicitly, so the provider has nothing to warn about.
      ttl: {
        AccessToken: () => state.ttl,
        ClientCredentials: () => state.ttl,
        Interaction: 600,
        Session: 600,
        Grant: 600,
        AuthorizationCode: 60,
      },
    });
  };
  build();

  const tokenUrl = `${issuer}/token`;
  const basic = (id: string) => `Basic ${Buffer.from(`${id}:${secretOf(id)}`).toString('base64')}`;

  /**
   * A browser's part, over HTTP: follow redirects keeping the provider's cookies, and submit its
   * login page (as alice, any password) and its consent page, until the redirect to the client's
   * callback.
   */
  async function authorize(authorizationUrl: URL): Promise<URLSearchParams> {
    const cookies = new Map<string, string>();
    let url = authorizationUrl.href;
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop += 1) {
      if (url.startsWith(REDIRECT_URI)) return new URL(url).searchParams;
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: form.toString() } : {}),
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location) {
        await response.body?.cancel();
        form = undefined;
        url = new URL(location, url).href;
        continue;
      }
      // A page with a form: the login page or the consent page.
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
      if (!action || !prompt) throw new Error(`authorization stopped at ${url} with ${response.status}`);
      form = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        form.set('login', 'alice');
        form.set('password', 'any');
      }
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
    }
    throw new Error('too many steps');
  }

  return {
    issuer,
    get keys() {
      return state.keys;
    },
    get format() {
      return state.format;
    },
    set format(value) {
      state.format = value;
    },
    get ttl() {
      return state.ttl;
    },
    set ttl(value) {
      state.ttl = value;
    },
    async rotateKeys() {
      state.keys = [await signingKey()];
      build();
    },
    async clientCredentials(clientId, { resource, scope = 'mcp:tools' }) {
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { authorization: basic(clientId), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async revoke(token, clientId) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { authorization: basic(clientId), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
      if (!response.ok) throw new Error(`revocation failed: ${response.status}`);
    },
    async codeFlow({ resource, scope }) {
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const url = new URL(`${issuer}/auth`);
      for (const [key, value] of Object.entries({
        response_type: 'code',
        client_id: DESKTOP.client_id,
        redirect_uri: REDIRECT_URI,
        scope,
        resource,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        nonce: 'n-1',
      }))
        url.searchParams.set(key, value);
      const callback = await authorize(url);
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: DESKTOP.client_id,
          code: callback.get('code') ?? '',
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          resource,
        }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; id_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body as { access_token: string; id_token?: string };
    },
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
