/** A stdio server over the test layer, run as a child process by the stdio tests. */
import { serveStdio } from '../../src/index.js';
import { buildLayer } from './test-layer.js';

// Written before serving starts would corrupt the stream; nothing may print here.
const stdoutFd = process.env.STDOUT_FD ? Number(process.env.STDOUT_FD) : undefined;
await serveStdio(buildLayer(), {
  pageSize: Number(process.env.PAGE_SIZE ?? 100),
  ...(stdoutFd !== undefined ? { stdoutFd } : {}),
});
process.stderr.write('stdio server finished\n');
