/**
 * The servers the HTTP benchmark loads, one per child process. Plain JavaScript run by plain
 * `node` against the built packages (`pnpm run build` first): what a user runs, with no
 * TypeScript loader in the request path.
 *
 *   node bench/servers.mjs <native|native-json|sdk|bare>
 */
import { createServer } from 'node:http';
import { z } from 'zod';

const kind = process.argv[2];

async function start() {
  if (kind === 'native' || kind === 'native-json') {
    const { createLogger, Layer, Registry } = await import('@cloudg/core');
    const { serveHttp } = await import('@cloudg/transports');
    const registry = new Registry();
    registry.tool({
      name: 'echo',
      input: { text: z.string() },
      handler: (_ctx, args) => ({ text: args.text }),
    });
    const layer = new Layer({ registry, logger: createLogger({ level: 'silent' }) });
    // native streams tools/call as SSE (MCP.md 6.2); native-json answers JSON as the SDK does.
    return (await serveHttp(layer, { port: 0, jsonResponse: kind === 'native-json' })).port;
  }
  if (kind === 'sdk') {
    const { createMcpHandler, McpServer } = await import('@modelcontextprotocol/server');
    const { toNodeHandler } = await import('@modelcontextprotocol/node');
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
  if (kind === 'bare') {
    return listen(
      createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const msg = JSON.parse(Buffer.concat(chunks).toString());
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: msg.id,
            result: { content: [], structuredContent: msg.params.arguments },
          });
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        });
      }),
    );
  }
  throw new Error(`unknown server kind: ${kind}`);
}

function listen(http) {
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http.address().port)));
}

const port = await start();
// The parent asks for CPU time around the measured run: a figure the machine's load distorts less.
let mark = process.cpuUsage();
process.on('message', (message) => {
  if (message === 'start') mark = process.cpuUsage();
  if (message === 'stop') {
    const used = process.cpuUsage(mark);
    process.send?.({ cpuMicros: used.user + used.system });
  }
});
process.send?.({ port });
