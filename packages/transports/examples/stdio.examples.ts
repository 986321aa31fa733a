/**
 * The README's stdio snippet (region `stdio`): type-checked here; it is not run by the tests,
 * since it serves the process's own stdin and stdout (test/stdio.test.ts serves a child's).
 */
import type { Layer } from '@cloudg/core';
// #region stdio
import { serveStdio } from '@cloudg/transports';
// #endregion stdio

export async function serveOverStdio(layer: Layer): Promise<void> {
  // #region stdio
  await serveStdio(layer); // resolves when stdin ends and in-flight requests are done
  // #endregion stdio
}
