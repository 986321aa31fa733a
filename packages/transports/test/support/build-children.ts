/**
 * Global setup: bundle the child-process servers the tests start (`stdio-server.ts`,
 * `http-server-child.ts`) into plain JavaScript once per run, so each test starts `node <file>`
 * instead of compiling TypeScript on the fly in every child. The bundle reads the workspace
 * packages from their sources (the `@cloudg/source` condition), so no build is needed first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the bundled children: `stdio-server.mjs`, `http-server-child.mjs`. */
    testChildrenDir: string;
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default async function setup(project: TestProject): Promise<() => void> {
  const outdir = mkdtempSync(join(tmpdir(), 'cloudg-test-children-'));
  await build({
    entryPoints: { stdioServer: here('./stdio-server.ts'), httpServerChild: here('./http-server-child.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@cloudg/source'],
    // CommonJS dependencies bundled into ESM still call `require` for Node's built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  project.provide('testChildrenDir', outdir);
  return () => rmSync(outdir, { recursive: true, force: true });
}
