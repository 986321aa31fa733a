/**
 * Serve the conformance fixture over Streamable HTTP, to run the suite by hand against it:
 * `pnpm --filter @cloudg/conformance serve`, then point `conformance server --url` at the URL.
 */
import { serveHttp } from '@cloudg/transports';
import { buildConformanceLayer } from './fixture.js';

const server = await serveHttp(buildConformanceLayer(), { port: Number(process.env.PORT ?? 0) });
process.stderr.write(`${server.url}\n`);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
