/**
 * Serving a layer with one flavor over HTTP and exercising it with the official client 2.4, for
 * the tests that compare a flavor's answers with the native flavor's on the same layer.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type ServerLayer, serve } from '../../src/index.js';

export const TOKENS = ['tok-ana:analyst:ana', 'tok-lee:lead:lee'];

/** Serve `server` with a flavor until the returned close runs; resolves once listening. */
export async function serving(
  server: ServerLayer,
  flavor: string,
  lines: string[] = [],
  authTokens = TOKENS,
) {
  const stop = new AbortController();
  let url = '';
  const done = serve(server, {
    transport: 'http',
    flavor,
    port: 0,
    authTokens,
    signal: stop.signal,
    handleSignals: false,
    announce: (line) => lines.push(line),
    onListening: (address) => {
      url = address.url;
    },
  });
  await new Promise<void>((resolve, reject) => {
    done.catch(reject);
    const tick = () => (url ? resolve() : setTimeout(tick, 10));
    tick();
  });
  return {
    url,
    close: async () => {
      stop.abort();
      await done;
    },
  };
}

export async function connect(url: string, mode: 'auto' | 'legacy', token: string): Promise<Client> {
  const client = new Client({ name: 'flavor-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** Drop per-call values (durations, generation times). */
export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['cloudg/duration_ms', 'generated_at'].includes(key))
      .map(([key, inner]) => [key, stable(inner)]),
  );
}

/** What a client sees of tools, a call, a resource, a prompt and a completion. */
export async function exercise(client: Client) {
  const call = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
  const prompt = await client.getPrompt({ name: 'investigate_asset', arguments: { ref: 'web-1' } });
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: 'investigate_asset' },
    argument: { name: 'ref', value: 'web' },
  });
  return stable({
    version: client.getNegotiatedProtocolVersion(),
    server: client.getServerVersion(),
    tools: (await client.listTools()).tools,
    call: {
      content: call.content,
      structuredContent: call.structuredContent,
      isError: call.isError,
      meta: call._meta,
    },
    resource: (await client.readResource({ uri: 'cloudg://datasets/prod/summary' })).contents,
    prompt: prompt.messages,
    completion: completion.completion,
  });
}
