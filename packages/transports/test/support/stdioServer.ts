/** A stdio server over the test layer, run as a child process by the stdio tests. */
import { serveStdio } from '../../src/index.js';
import { buildLayer } from './testLayer.js';

// Written before serving starts would corrupt the stream; nothing may print here.
await serveStdio(buildLayer(), { pageSize: Number(process.env.PAGE_SIZE ?? 100) });
process.stderr.write('stdio server finished\n');
