/**
 * `serve` with an OAuth issuer over the sample estate: the start-up line names the issuer and the
 * resource, the metadata is public, a request without a token is challenged towards it, a static
 * token keeps working beside sign-in, and the SDK flavor refuses the option. Token validation
 * against a real authorization server is tested in @cloudg/transports (test/oauth.test.ts).
 */
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { afterEach, describe, expect, it } from 'vitest';
import { checkServeOptions, createLayerFromOptions, type ServeOptions, serve } from '../src/index.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
// Nothing listens here: these tests never need a token checked.
const ISSUER = 'https://login.example.com/tenant-1';

let stop: AbortController | undefined;
let done: Promise<void> | undefined;
afterEach(async () => {
  stop?.abort();
  await done;
  stop = undefined;
  done = undefined;
});

async function start(options: ServeOptions, lines: string[]): Promise<string> {
  const server = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${MAP}`] });
  stop = new AbortController();
  let url = '';
  done = serve(server, {
    transport: 'http',
    port: 0,
    signal: stop.signal,
    handleSignals: false,
    announce: (line) => lines.push(line),
    onListening: (address) => {
      url = address.url;
    },
    ...options,
  });
  await new Promise<void>((resolve) => {
    const tick = () => (url ? resolve() : setTimeout(tick, 5));
    tick();
  });
  return url;
}

function listTools(url: string, token?: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe('serve with --oauth-issuer', () => {
  it('announces the issuer and resource, publishes the metadata and challenges towards it', async () => {
    const lines: string[] = [];
    const url = await start({ oauth: { issuer: ISSUER, requiredScopes: ['mcp:tools'] } }, lines);
    expect(lines).toContain(`Sign-in: access tokens from ${ISSUER} for the resource ${url}`);
    const origin = new URL(url).origin;
    const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toEqual({
      resource: url,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
      resource_name: 'cloudg',
    });
    const refused = await listTools(url);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('warns when bound beyond loopback without the public resource URL', async () => {
    const lines: string[] = [];
    const url = await start({ host: '0.0.0.0', oauth: { issuer: ISSUER } }, lines);
    expect(lines).toContain(
      `Warning: --oauth-resource is not set, so tokens must name ${url}; set it to the URL clients use`,
    );
    expect(lines.join('\n')).not.toContain('without --auth-token');
  });

  it('keeps static tokens working beside sign-in (service accounts)', async () => {
    const url = await start({ oauth: { issuer: ISSUER }, authTokens: ['svc-token:analyst:ci-bot'] }, []);
    const response = await listTools(url, 'svc-token');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { tools: unknown[] } };
    expect(body.result.tools.length).toBeGreaterThan(0);
    // An unknown token is not a static one, so it goes to the issuer's checks and is refused.
    expect((await listTools(url, 'not-a-token')).status).toBe(401);
  });

  it('is refused with the SDK flavor, which has no sign-in', () => {
    expect(() => checkServeOptions({ transport: 'http', flavor: 'sdk', oauth: { issuer: ISSUER } })).toThrow(
      '--oauth-issuer is served by the native flavor only; drop --flavor sdk',
    );
  });
});
