/**
 * The servers the flavor benchmark loads, one per child process, on the built packages (plain
 * node, no TypeScript loader in the request path). Each serves the same layer (an `echo` tool)
 * a different way:
 *
 *   native       serveHttp: the native server on its own port
 *   mounted      createMcpRequestHandler inside an app's node:http server
 *   sdk          the sdk flavor: createSdkHttpHandler (the official SDK's handler) + toNodeHandler
 *   sdk-plain    for scale, no cloudg at all: the SDK's own McpServer with an echo tool, served
 *                the same way (what the transports benchmark calls `sdk`)
 *   fastmcp      the fastmcp flavor: createFastMCPServer on fastmcp's own HTTP stream (stateful,
 *                handshake era only)
 *
 *   node bench/servers.mjs <native|mounted|sdk|sdk-plain|fastmcp>
 */
import { createServer } from 'node:http';
import { createFastMCPServer } from '@cloudg/adapters/fastmcp';
import { createSdkHttpHandler } from '@cloudg/adapters/sdk';
import { Layer, Registry } from '@cloudg/core';
import { createMcpRequestHandler, serveHttp } from '@cloudg/transports';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const kind = process.argv[2];

function layer() {
  const registry = new Registry();
  registry.tool({
    name: 'echo',
    description: 'Echo the text back.',
    input: { text: z.string() },
    handler: (_ctx, args) => ({ text: args.text }),
  });
  // Quiet: fastmcp logs every session it opens (a warning each, see the README).
  const built = new Layer({ registry });
  built.logger.level = 'error';
  return built;
}

function listen(http) {
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http.address().port)));
}

async function start() {
  if (kind === 'native') return (await serveHttp(layer(), { port: 0 })).port;
  if (kind === 'mounted') {
    const mcp = createMcpRequestHandler(layer());
    return listen(createServer((req, res) => mcp(req, res, () => res.end())));
  }
  if (kind === 'sdk') {
    const node = toNodeHandler(createSdkHttpHandler(layer()));
    return listen(createServer((req, res) => void node(req, res)));
  }
  if (kind === 'sdk-plain') {
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'bench', version: '1.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
        async (args) => ({
          content: [{ type: 'text', text: JSON.stringify({ text: args.text }) }],
          structuredContent: { text: args.text },
        }),
      );
      return server;
    });
    const node = toNodeHandler(handler);
    return listen(createServer((req, res) => void node(req, res)));
  }
  if (kind === 'fastmcp') {
    // fastmcp binds its own server and does not report the port: take a free one first.
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const { server } = createFastMCPServer(layer());
    await server.start({ transportType: 'httpStream', httpStream: { host: '127.0.0.1', port, cors: false } });
    return port;
  }
  throw new Error(`unknown server kind: ${kind}`);
}

const port = await start();
let mark = process.cpuUsage();
process.on('message', (message) => {
  if (message === 'start') mark = process.cpuUsage();
  if (message === 'stop') {
    const used = process.cpuUsage(mark);
    process.send?.({ cpuMicros: used.user + used.system });
  }
});
process.send?.({ port });
