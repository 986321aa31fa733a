/** Serve the conformance fixture over Streamable HTTP for the MCP conformance suite. */
import { serveHttp } from '../src/index.js';
import { buildConformanceLayer } from './fixture.js';

const server = await serveHttp(buildConformanceLayer(), { port: Number(process.env.PORT ?? 0) });
process.stderr.write(`${server.url}\n`);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
