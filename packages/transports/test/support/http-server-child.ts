/**
 * The HTTP server over the test layer in a process of its own, so a test can tell "answered with
 * an error" from "crashed": prints `LISTENING <port>` on stdout once it listens, logs warnings
 * and errors (JSON lines) to stderr, and stays up until killed.
 */
import { createLogger } from '@cloudg/core';
import { serveHttp } from '../../src/index.js';
import { buildLayer } from './test-layer.js';

const server = await serveHttp(buildLayer({ logger: createLogger({ level: 'warn' }) }), {
  port: 0,
  authTokens: ['s3cret:analyst:alice'],
  keepaliveIntervalMs: 100,
  // The deprecated HTTP+SSE endpoints too, so their hostile input is covered as well.
  transport: 'sse',
});
process.stdout.write(`LISTENING ${server.port}\n`);
