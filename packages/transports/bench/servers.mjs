/**
 * The servers the HTTP benchmark loads, one per child process. Plain JavaScript run by plain
 * `node` against the built packages (`pnpm run build` first): what a user runs, with no
 * TypeScript loader in the request path.
 *
 *   node bench/servers.mjs <native|native-json|native-find|sdk|bare>
 */
import { createServer } from 'node:http';
import { z } from 'zod';

const kind = process.argv[2];

/**
 * A stand-in for the catalog's `find_assets` over a mid-sized estate: 2,000 synthetic assets,
 * filtered by provider and text, sorted by name, a page of 50 briefs returned as structured
 * content and as JSON text (about 30 KB and half a millisecond of CPU per call, like
 * find_assets on the sample estate).
 */
function registerFindAssets(registry) {
  const providers = ['aws', 'azure', 'gcp'];
  const types = ['EC2', 'S3_BUCKET', 'IAM_ROLE', 'VPC', 'LAMBDA', 'RDS', 'VM', 'STORAGE_ACCOUNT'];
  const assets = Array.from({ length: 2000 }, (_, i) => ({
    id: `asset-${i}`,
    name: `${types[i % types.length].toLowerCase()}-${(i * 7919) % 10007}`,
    type: types[i % types.length],
    provider: providers[i % providers.length],
    region: `region-${i % 7}`,
    account_id: String(100000000000 + (i % 13)),
    internet_exposed: i % 5 === 0,
    tags: { env: i % 2 ? 'prod' : 'dev', team: `team-${i % 9}` },
    findings: i % 4,
  }));
  registry.tool({
    name: 'find_assets',
    input: {
      query: z.string().default(''),
      provider: z.string().default(''),
      limit: z.number().int().default(50),
    },
    handler: (_ctx, args) => {
      const query = args.query.toLowerCase();
      const matched = assets
        .filter((a) => (!args.provider || a.provider === args.provider) && (!query || a.name.includes(query)))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const items = matched.slice(0, args.limit).map((a) => ({
        id: a.id,
        name: a.name,
        type: a.type,
        provider: a.provider,
        region: a.region,
        account_id: a.account_id,
        uri: `cloudg://assets/${a.id}`,
        internet_exposed: a.internet_exposed,
        open_findings: a.findings,
        tags: a.tags,
      }));
      return {
        total: matched.length,
        returned: items.length,
        truncated: matched.length > items.length,
        items,
      };
    },
  });
}

async function start() {
  if (kind === 'native' || kind === 'native-json' || kind === 'native-find') {
    const { createLogger, Layer, Registry } = await import('@cloudg/core');
    const { serveHttp } = await import('@cloudg/transports');
    const registry = new Registry();
    registry.tool({
      name: 'echo',
      input: { text: z.string() },
      handler: (_ctx, args) => ({ text: args.text }),
    });
    if (kind === 'native-find') registerFindAssets(registry);
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
