/** A stdio server over the test layer, run as a child process by the stdio tests. */
import { serveStdio } from '../../src/index.js';
import { buildAskingLayer } from './asking-layer.js';
import { buildTaskLayer } from './task-layer.js';
import { buildLayer } from './test-layer.js';

// Written before serving starts would corrupt the stream; nothing may print here.
const stdoutFd = process.env.STDOUT_FD ? Number(process.env.STDOUT_FD) : undefined;
// TEST_LAYER=asking serves the layer whose tools ask the client (test/asking.test.ts), tasks the
// one whose tools run as tasks (test/tasks-client.test.ts).
const layers: Record<string, () => unknown> = { asking: buildAskingLayer, tasks: buildTaskLayer };
const layer = (layers[process.env.TEST_LAYER ?? ''] ?? buildLayer)();
await serveStdio(layer as Parameters<typeof serveStdio>[0], {
  pageSize: Number(process.env.PAGE_SIZE ?? 100),
  ...(stdoutFd !== undefined ? { stdoutFd } : {}),
});
process.stderr.write('stdio server finished\n');
