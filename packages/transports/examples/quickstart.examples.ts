/**
 * The README's quick start (region `quickstart`, copied by `pnpm readme-examples --update`): one
 * layer served over Streamable HTTP with a token, then called with fetch. test/examples.test.ts
 * runs it.
 */
// #region quickstart
import { Layer, Registry } from '@cloudg/core';
import { serveHttp } from '@cloudg/transports';
import * as z from 'zod';
// #endregion quickstart

export async function quickstart(): Promise<{ version: unknown; echoed: unknown }> {
  // #region quickstart
  const registry = new Registry();
  registry.tool({
    name: 'echo',
    description: 'Echo the text back.',
    input: { text: z.string() },
    handler: (_ctx, args) => ({ text: args.text }),
  });
  const layer = new Layer({ registry });

  // Port 0 picks a free port; `url` is the endpoint, e.g. http://127.0.0.1:40123/mcp
  const server = await serveHttp(layer, { port: 0, authTokens: ['s3cret:analyst:alice'] });

  // A 2026-07-28 request: no handshake, the envelope in _meta and the mirrored headers.
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      Authorization: 'Bearer s3cret',
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'echo',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { text: 'hello' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const body = (await response.json()) as { result: { structuredContent: unknown; resultType: unknown } };
  // body.result.structuredContent -> { text: 'hello' }, body.result.resultType -> 'complete'
  await server.close();
  // #endregion quickstart
  return { version: body.result.resultType, echoed: body.result.structuredContent };
}
