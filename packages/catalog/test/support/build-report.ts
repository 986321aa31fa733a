import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest global setup: bundle the report viewer (report/build.mjs) before the tests, so the
 * export tests and the browser tests find report/build/viewer.js however vitest was started
 * (`pnpm test` also bundles it; `npx vitest run <file>` alone would not). Takes under a second.
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../report/build.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
